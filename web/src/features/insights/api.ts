import type {
  AnswerUnansweredRequest,
  CheckView,
  CreateCheckRequest,
  TranscriptSummary,
  TranscriptView,
  UnansweredGroupView,
} from '@sparks/contracts';

import { api } from '../../api/client';

const base = (sparkId: string) => `/sparks/${encodeURIComponent(sparkId)}/unanswered`;

export const unansweredKey = (sparkId: string) => ['unanswered', sparkId] as const;

export const fetchUnanswered = (sparkId: string) => api.get<UnansweredGroupView[]>(base(sparkId));

export const answerUnanswered = (sparkId: string, questionId: string, body: AnswerUnansweredRequest) =>
  api.post<{ documentId: string; groups: UnansweredGroupView[] }>(
    `${base(sparkId)}/${encodeURIComponent(questionId)}/answer`,
    body,
  );

/** Takes back the owner's answer to a group: it leaves the Spark's knowledge and the group is open again. */
export const deleteUnansweredAnswer = (sparkId: string, questionId: string) =>
  api.delete<{ removed: number; groups: UnansweredGroupView[] }>(
    `${base(sparkId)}/${encodeURIComponent(questionId)}/answer`,
  );

/** Dismisses a group: its open questions leave the list until asked or rated wrong again. */
export const dismissUnanswered = (sparkId: string, questionId: string) =>
  api.post<{ dismissed: number; groups: UnansweredGroupView[] }>(
    `${base(sparkId)}/${encodeURIComponent(questionId)}/dismiss`,
    {},
  );

const checksBase = (sparkId: string) => `/sparks/${encodeURIComponent(sparkId)}/checks`;

export const checksKey = (sparkId: string) => ['checks', sparkId] as const;

/** The Spark's answer checks (issue 35 item 3). */
export const fetchChecks = (sparkId: string) => api.get<CheckView[]>(checksBase(sparkId));

/** Keeps a check: from a test's answer (`messageId`) or typed; the same question again replaces its answer. */
export const keepCheck = (sparkId: string, body: CreateCheckRequest) => api.post<CheckView>(checksBase(sparkId), body);

export const approveCheck = (sparkId: string, checkId: string) =>
  api.post<CheckView>(`${checksBase(sparkId)}/${encodeURIComponent(checkId)}/approve`, {});

export const deleteCheck = (sparkId: string, checkId: string) =>
  api.delete<{ deleted: true }>(`${checksBase(sparkId)}/${encodeURIComponent(checkId)}`);

/** Asks every check again now (the worker answers; the Spark's chat tells what changed). */
export const runChecks = (sparkId: string) =>
  api.post<{ queued: true }>(`/sparks/${encodeURIComponent(sparkId)}/check-runs`, {});

const transcriptsBase = (sparkId: string) => `/sparks/${encodeURIComponent(sparkId)}/transcripts`;

export const transcriptsKey = (sparkId: string) => ['transcripts', sparkId] as const;
export const transcriptKey = (sparkId: string, conversationId: string) =>
  ['transcript', sparkId, conversationId] as const;

/** The transcripts of the Spark's judged tests, newest first (issue 35 item 2). */
export const fetchTranscripts = (sparkId: string) => api.get<TranscriptSummary[]>(transcriptsBase(sparkId));

/** One transcript: its messages with the owner's ratings of the answers. */
export const fetchTranscript = (sparkId: string, conversationId: string) =>
  api.get<TranscriptView>(`${transcriptsBase(sparkId)}/${encodeURIComponent(conversationId)}`);

export const deleteTranscript = (sparkId: string, conversationId: string) =>
  api.delete<{ deleted: true }>(`${transcriptsBase(sparkId)}/${encodeURIComponent(conversationId)}`);
