import { z } from 'zod';

/**
 * Document sharing (issue 20, docs/product.md §7): a Spark connects Microsoft 365 (SharePoint document libraries and
 * OneDrive) through Microsoft Graph. The provider in the path is `microsoft`; `service` says which of the two
 * the user asked for (both use the same sign-in; it picks where browsing starts).
 */
export const INTEGRATION_PROVIDERS = ['microsoft'] as const;
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number];
export const INTEGRATION_SERVICES = ['sharepoint', 'onedrive'] as const;
export type IntegrationService = (typeof INTEGRATION_SERVICES)[number];

/** The query the browser comes back with after connecting (docs/product.md §2): in rules.ts, which the web app reads. */
export { SHAREPOINT_CONNECTED_QUERY } from './rules';

export const integrationParams = z.object({ sparkId: z.uuid(), provider: z.string().min(1).max(40) });

export const authorizeQuery = z.object({ service: z.enum(INTEGRATION_SERVICES).default('sharepoint') });

/** GET /sparks/:sparkId/integrations/:provider/authorize: where the new tab goes to sign in. */
export const authorizeResultSchema = z.object({ authUrl: z.string() });

export const integrationConnectionSchema = z.object({
  provider: z.enum(INTEGRATION_PROVIDERS),
  service: z.enum(INTEGRATION_SERVICES),
  connectedAt: z.string(),
});

/** GET /sparks/:sparkId/integrations: whether this server has Microsoft set up, and the Spark's connections. */
export const integrationsViewSchema = z.object({
  configured: z.object({ microsoft: z.boolean() }),
  connections: z.array(integrationConnectionSchema),
});
export type IntegrationsView = z.infer<typeof integrationsViewSchema>;

export const integrationDisconnectedSchema = z.object({
  provider: z.enum(INTEGRATION_PROVIDERS),
  disconnected: z.boolean(),
});
