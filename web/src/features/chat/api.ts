import type {
  AnswerFeedbackRequest,
  AnswerFeedbackView,
  CheckView,
  DocumentView,
  IntegrationProvider,
  IntegrationsView,
  SparkTestView,
  UploadResult,
} from '@sparks/contracts';

import { api, ApiError, unwrapBody, type ApiClient } from '../../api/client';
import { readErrors } from '../../chat-core/errors';
import { isStreamEvent, readEventStream } from '../../chat-core/sse';
import type { ChatHistory, ChatMessage, ChatStreamEvent, ChatTarget } from './types';

/** The chat's calls (docs/product.md §7): event-stream chats, histories, the upload and what the widgets check. */

/** The stream of a target, with the message and the conversation to continue (none: a new one). */
export function chatStreamPath(target: ChatTarget, text: string, sessionId: string | null): string {
  const query = new URLSearchParams({ 'input.text': text });
  switch (target.kind) {
    case 'system':
      if (sessionId) query.set('sessionId', sessionId);
      if (target.sparkId) query.set('options.sparkId', target.sparkId);
      return `/spark-sys/${encodeURIComponent(target.name)}/chat?${query.toString()}`;
    case 'builder':
      if (sessionId) query.set('sessionId', sessionId);
      return `/sparks/${encodeURIComponent(target.sparkId)}/chat?${query.toString()}`;
    case 'test':
      if (sessionId) query.set('conversationId', sessionId);
      return `/sparks/${encodeURIComponent(target.sparkId)}/chat/${encodeURIComponent(target.testId)}?${query.toString()}`;
  }
}

/** A non-2xx answer of fetch as an {@link ApiError}, from the server's error list when it sent one. */
export async function errorOfResponse(response: Response): Promise<ApiError> {
  return new ApiError(response.status, await readErrors(response));
}

export interface StreamChatOptions {
  target: ChatTarget;
  text: string;
  sessionId: string | null;
  signal?: AbortSignal;
  onEvent: (event: ChatStreamEvent) => void;
  client?: Pick<ApiClient, 'fetch'>;
}

/**
 * Sends a message and reads the event stream of the reply until it ends. Errors before the stream
 * (400, 402, 404…) throw an {@link ApiError}; errors inside it arrive as `error` events.
 */
export async function streamChat({
  target,
  text,
  sessionId,
  signal,
  onEvent,
  client = api,
}: StreamChatOptions): Promise<void> {
  const response = await client.fetch(chatStreamPath(target, text, sessionId), {
    method: 'GET',
    headers: { Accept: 'text/event-stream' },
    signal,
    cache: 'no-store',
  });
  if (!response.ok) throw await errorOfResponse(response);
  if (!response.body) throw new ApiError(response.status, [{ code: 'NETWORK_ERROR', message: 'No stream' }]);
  await readEventStream(response.body, (event) => {
    if (isStreamEvent(event)) onEvent(event);
  });
}

/**
 * The conversation to resume: by its stored id when there is one, else (Spark and test chats) the latest
 * one the server keeps. `null` when there is nothing to resume (a system assistant without a stored id).
 * A stored id the server no longer knows throws a 404 {@link ApiError}.
 */
export async function loadHistory(target: ChatTarget, sessionId: string | null): Promise<ChatHistory | null> {
  if (sessionId) {
    if (target.kind === 'system') {
      const { messages } = await api.get<{ messages: ChatMessage[] }>(`/spark-sys/conversations/${sessionId}`);
      return { messages, sessionId, sparkId: target.sparkId ?? null };
    }
    return api.get<ChatHistory>(`/llm/chat-history/${sessionId}`);
  }
  switch (target.kind) {
    case 'system':
      return null;
    case 'builder':
      return api.get<ChatHistory>(`/sparks/${target.sparkId}/conversation`);
    case 'test':
      return api.get<ChatHistory>(`/sparks/${target.sparkId}/tests/${target.testId}/conversation`);
  }
}

/** POST /bucket: the file, the Spark and, when it belongs to that Spark, the conversation. */
export async function uploadDocument(
  file: File,
  sparkId: string,
  conversationId: string | null,
  client: Pick<ApiClient, 'fetch'> = api,
): Promise<UploadResult> {
  const form = new FormData();
  // The fields before the file: the server reads them as the file streams in.
  form.append('sparkId', sparkId);
  if (conversationId) form.append('conversationId', conversationId);
  form.append('name', file.name);
  form.append('file', file, file.name);
  // fetch writes the multipart boundary itself.
  const response = await client.fetch('/bucket', {
    method: 'POST',
    body: form,
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw await errorOfResponse(response);
  return unwrapBody<UploadResult>(await response.json(), response.status);
}

export function listDocuments(sparkId: string): Promise<DocumentView[]> {
  return api.get<DocumentView[]>(`/sparks/${sparkId}/documents`);
}

/** Issue 34 item 10: the title customers read as the document's source (null: its file name). */
export function setDocumentTitle(sparkId: string, documentId: string, title: string | null): Promise<DocumentView> {
  return api.patch<DocumentView>(`/sparks/${sparkId}/documents/${documentId}`, { title });
}

export function listTests(sparkId: string): Promise<SparkTestView[]> {
  return api.get<SparkTestView[]>(`/sparks/${sparkId}/tests`);
}

/** Whether this server has document sharing set up, and the Spark's connections. */
export function getIntegrations(sparkId: string): Promise<IntegrationsView> {
  return api.get<IntegrationsView>(`/sparks/${sparkId}/integrations`);
}

/** Disconnects the Spark from Microsoft 365: the server forgets the tokens; documents already imported stay. */
export function disconnectIntegration(sparkId: string) {
  return api.delete<{ provider: IntegrationProvider; disconnected: boolean }>(
    `/sparks/${sparkId}/integrations/microsoft`,
  );
}

/**
 * docs/product.md §7: where to sign in to Microsoft 365 for the Spark (opened in a new tab). The answer also sets the cookie
 * that binds the sign-in to this browser (same origin, so fetch keeps it).
 */
export function authorizeIntegration(sparkId: string, service: 'sharepoint' | 'onedrive' = 'sharepoint') {
  return api.get<{ authUrl: string }>(`/sparks/${sparkId}/integrations/microsoft/authorize`, { params: { service } });
}

/** The owner rates an answer of one of their Spark's test chats (issue 35); a second rating replaces the first. */
export function rateTestAnswer(sparkId: string, messageId: string, body: AnswerFeedbackRequest) {
  return api.post<AnswerFeedbackView>(
    `/sparks/${encodeURIComponent(sparkId)}/messages/${encodeURIComponent(messageId)}/feedback`,
    body,
  );
}

/** Keeps an answer of a test chat as one of the Spark's answer checks (issue 35 item 3). */
export function keepAnswerAsCheck(sparkId: string, messageId: string) {
  return api.post<CheckView>(`/sparks/${encodeURIComponent(sparkId)}/checks`, { messageId });
}
