import type { DeploymentView } from '@sparks/contracts';

import { api } from '../../api/client';

/**
 * A Spark's deployment (GET /sparks/:id/deployment) and its SWR key: read by /deploy and by the delete dialog (a
 * published Spark says so before it goes). Here, not in features/deploy, so that sparks does not import deploy; a
 * module of its own, so that the first load (which has sparks/api) does not carry it.
 */
export const deploymentKey = (sparkId: string) => ['deployment', sparkId] as const;
export const fetchDeployment = (sparkId: string) =>
  api.get<DeploymentView>(`/sparks/${encodeURIComponent(sparkId)}/deployment`);
