import type { ChatMessageView, SparkTestView, TestVerdict } from '@sparks/contracts';

import { api } from '../../api/client';

/** The calls of the test screens (docs/product.md §7), under /api/v1 with the bearer token. */

const testsPath = (sparkId: string) => `/sparks/${encodeURIComponent(sparkId)}/tests`;
const testPath = (sparkId: string, testId: string) => `${testsPath(sparkId)}/${encodeURIComponent(testId)}`;

/** POST /sparks/{id}/tests; a sixth test answers 400 TESTS_LIMIT ("You can't add more than 5 tests"). */
export function createTest(sparkId: string, name: string): Promise<SparkTestView> {
  return api.post(testsPath(sparkId), { name, params: { documentId: null, waitResponse: true } });
}

/**
 * DELETE /sparks/{id}/tests/{testId}. With the owner's answer to "Was the test OK?" (`verdict`), the server keeps the
 * test's conversation as a transcript the Spark's review panel lists (issue 35 item 2).
 */
export function deleteTest(sparkId: string, testId: string, verdict?: TestVerdict): Promise<unknown> {
  return verdict
    ? api.delete(testPath(sparkId, testId), { params: { verdict } })
    : api.delete(testPath(sparkId, testId));
}

export function reportTestError(sparkId: string, testId: string, error: string): Promise<unknown> {
  return api.post(`${testPath(sparkId, testId)}/error`, { error });
}

export interface RestartedTest {
  conversationId: string;
  human: ChatMessageView;
  ai: ChatMessageView | null;
  messages: ChatMessageView[];
}

/** Forgets the test's conversation on the server and starts a new one with 'inicio' (waits for the greeting). */
export function restartTest(sparkId: string, testId: string): Promise<RestartedTest> {
  return api.post(`${testPath(sparkId, testId)}/restart`);
}

export interface BuilderReply {
  ai: ChatMessageView | null;
  messages: ChatMessageView[];
  sessionId: string;
}

/** A message into the Spark's builder chat (its latest conversation); waits for the reply. */
export function sendBuilderMessage(sparkId: string, text: string): Promise<BuilderReply> {
  return api.post(`/sparks/${encodeURIComponent(sparkId)}/messages`, { input: { text } });
}
