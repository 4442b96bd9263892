import { z } from 'zod';

import { chatMessageViewSchema } from './chat';
import { MAX_MESSAGE_LENGTH } from './rules';

export const MAX_TESTS_PER_SPARK = 5;

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

// — answers —

export const sparkViewSchema = z.object({
  _id: z.string(),
  sparkId: z.string(),
  name: z.string(),
  pin: z.boolean(),
  type: z.string(),
  userId: z.string(),
  options: z.looseObject({
    isTest: z.boolean(),
    initialMessage: z.string(),
    level: z.literal('PUBLIC'),
    sysPrompt: z.string(),
    language: z.enum(['es', 'en']),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SparkView = z.infer<typeof sparkViewSchema>;

/** `meta` of a paged list: `{ data: items, meta }`. */
export const pageMetaSchema = z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() });

export const sparkTestViewSchema = z.object({
  _id: z.string(),
  sparkId: z.string(),
  name: z.string(),
  params: z.object({ documentId: z.string().nullable().optional(), waitResponse: z.boolean().optional() }),
  createdAt: z.string(),
});
export type SparkTestView = z.infer<typeof sparkTestViewSchema>;

/** DELETE of a Spark or a test. */
export const deletedSchema = z.object({ deleted: z.literal(true) });

/** POST /sparks/{sparkId}/tests/{testId}/error: the report as kept. */
export const testErrorReportSchema = z.object({
  _id: z.string(),
  testId: z.string(),
  error: z.string(),
  createdAt: z.string(),
});

/** What the JSON chat routes answer once the reply is complete: the reply's messages and the human one. */
const chatAnswer = z.object({
  ai: chatMessageViewSchema.nullable(),
  messages: z.array(chatMessageViewSchema),
  human: chatMessageViewSchema,
});
/** POST /sparks/{sparkId}/chat/{testId} and the restart of a test. */
export const testChatAnswerSchema = chatAnswer.extend({ conversationId: z.string() });
/** POST /sparks/{sparkId}/messages. */
export const builderChatAnswerSchema = chatAnswer.extend({ sessionId: z.string() });
/** GET /spark-sys/conversations/{id}. */
export const conversationMessagesSchema = z.object({ messages: z.array(chatMessageViewSchema) });
