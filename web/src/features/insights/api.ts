import type { AnswerUnansweredRequest, UnansweredGroupView } from '@sparks/contracts';

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
