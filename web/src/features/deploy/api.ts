import type { DeployChannel, DeploymentView, SiteKeyView } from '@sparks/contracts';

import { api } from '../../api/client';

const base = (sparkId: string) => `/sparks/${encodeURIComponent(sparkId)}/deployment`;

export { deploymentKey, fetchDeployment } from '../sparks/deployment';

export const publish = (sparkId: string, channel: DeployChannel) =>
  api.post<DeploymentView>(base(sparkId), { channel });
export const unpublish = (sparkId: string) => api.delete<DeploymentView>(base(sparkId));
export const rotate = (sparkId: string) => api.post<DeploymentView>(`${base(sparkId)}/rotate`, {});
export const addOrigin = (sparkId: string, origin: string) =>
  api.post<DeploymentView>(`${base(sparkId)}/origins`, { origin });
export const removeOrigin = (sparkId: string, origin: string) =>
  api.post<DeploymentView>(`${base(sparkId)}/origins/remove`, { origin });
export const newSiteKey = (sparkId: string) => api.post<SiteKeyView>(`${base(sparkId)}/site-key`, {});
export const previewToken = (sparkId: string) =>
  api.post<{ token: string; scriptUrl: string }>(`${base(sparkId)}/preview`, {});

export interface VisitorConversation {
  conversationId: string;
  origin: string | null;
  messages: number;
  /** The visitor's first message; null while they have written nothing. */
  firstQuestion: string | null;
  contactEmail: string | null;
  createdAt: string;
  updatedAt: string;
}

export async function fetchVisitorConversations(sparkId: string): Promise<VisitorConversation[]> {
  const res = await api.axios.get<{ data: VisitorConversation[] }>(`${base(sparkId)}/conversations`, {
    params: { limit: 20 },
  });
  return res.data.data;
}

export const fetchVisitorConversation = (sparkId: string, conversationId: string) =>
  api.get<{ messages: Array<{ _id: string; type: string; data: { content: string } }> }>(
    `${base(sparkId)}/conversations/${encodeURIComponent(conversationId)}`,
  );

/** PATCH /objectives/deploy: the panel marks the deploy objectives' steps as the owner goes. */
export const completeStep = (stepId: string) =>
  api.patch('/objectives/deploy', { stepId, status: 'completed' }).catch(() => undefined);
