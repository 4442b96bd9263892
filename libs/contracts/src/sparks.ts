import { z } from 'zod';

export const MAX_TESTS_PER_SPARK = 5;
export const MAX_MESSAGE_LENGTH = 4000;
export const PINNED_SHOWN = 4;

const uuid = z.uuid();

export const sparkIdParams = z.object({ sparkId: uuid });
export const sparkTestParams = z.object({ sparkId: uuid, testId: uuid });
export const idParams = z.object({ id: uuid });

export const createSparkSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  options: z
    .object({
      initialMessage: z.string().trim().min(1).max(1000).optional(),
      language: z.enum(['es', 'en']).optional(),
    })
    .optional(),
});
export type CreateSparkRequest = z.input<typeof createSparkSchema>;

/** Pin or rename; a blank name is refused. */
const nonBlankName = z
  .string()
  .max(120)
  .transform((v) => v.trim())
  .refine((v) => v.length > 0, { params: { code: 'BLANK_NAME' } });

export const updateSparkSchema = z
  .object({
    name: nonBlankName.optional(),
    pin: z.boolean().optional(),
  })
  .refine((v) => v.name !== undefined || v.pin !== undefined, { message: 'name or pin', path: ['name'] });

export const listSparksQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  pinned: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});

export const createTestSchema = z.object({
  name: z.string().trim().min(1).max(80),
  params: z
    .object({
      documentId: z.uuid().nullable().optional(),
      waitResponse: z.boolean().optional(),
    })
    .optional(),
});
export const renameTestSchema = z.object({ name: nonBlankName });
export const testErrorSchema = z.object({ error: z.string().trim().min(1).max(4000) });

const messageText = z.string().max(MAX_MESSAGE_LENGTH);

/** POST /sparks/{sparkId}/chat/{testId}: { input: { text }, conversationId }. */
export const testChatSchema = z.object({
  input: z.object({ text: messageText }),
  conversationId: z.uuid().nullable().optional(),
});

/** POST /sparks/{sparkId}/messages: the Spark's own builder chat. */
export const builderChatSchema = z.object({
  input: z.object({ text: messageText }),
  sessionId: z.uuid().nullable().optional(),
});

/** Query of the streaming chats: `input.text`, `sessionId`, `options.sparkId`. */
export const streamChatQuery = z.object({
  'input.text': messageText.default(''),
  sessionId: z
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  conversationId: z
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  'options.sparkId': z
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export const SYSTEM_ASSISTANTS = [
  'main',
  'new-spark',
  'billing',
  'deploy',
  'settings',
  'profile',
  'onboarding',
] as const;
export type SystemAssistant = (typeof SYSTEM_ASSISTANTS)[number];
export const systemChatParams = z.object({ sparkname: z.enum(SYSTEM_ASSISTANTS) });

export interface SparkView {
  _id: string;
  sparkId: string;
  name: string;
  pin: boolean;
  type: string;
  userId: string;
  options: {
    isTest: boolean;
    deployToken: string;
    initialMessage: string;
    level: 'PUBLIC';
    sysPrompt: string;
    language: 'es' | 'en';
    [key: string]: unknown;
  };
  createdAt: string;
  updatedAt: string;
}

export interface SparkTestView {
  _id: string;
  sparkId: string;
  name: string;
  params: { documentId?: string | null; waitResponse?: boolean };
  createdAt: string;
}

export interface ChatMessageView {
  _id: string;
  type: 'human' | 'ai' | 'action';
  data: { content: string; type?: string; documentId?: string; [key: string]: unknown };
  createdAt: string;
  replyTo?: string | null;
}

export interface ChatHistory {
  messages: ChatMessageView[];
  sessionId: string;
  sparkId: string | null;
}
