import { z } from 'zod';

// — the owner's data (issue 30): the export —

/** `GET /account/export` of an account too large to zip at once: the worker builds it and e-mails its link. */
export const accountExportQueuedSchema = z.object({
  status: z.literal('queued'),
  exportId: z.string(),
  /** Where the link goes: the account's own address. */
  email: z.string(),
  /** How many days the link works once sent. */
  linkDays: z.number().int(),
});
export type AccountExportQueued = z.infer<typeof accountExportQueuedSchema>;

export const exportIdParams = z.object({ exportId: z.uuid() });
/** The e-mailed link's secret. */
export const exportDownloadQuery = z.object({ token: z.string().min(1).max(200) });
