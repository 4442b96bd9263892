import { z } from 'zod';

import { LANGUAGES } from './rules';
import { WIDGET_TYPES } from './widgets';

/**
 * Chat payloads, defined once: the messages the API answers, the widgets that assistants send inside
 * action messages, and the events of a chat's event stream. The api documents them (OpenAPI), the flow
 * engine builds its widgets typed from them, the worker and the api publish and relay the events typed
 * from them, and the web imports the TYPES only (`import type`), so that zod stays out of its bundle.
 */

// — messages —

/** A message's `data`: its text, and for some kinds more fields (a widget's, a document's…). */
export const messageDataSchema = z.looseObject({
  content: z.string(),
  type: z.string().optional(),
  documentId: z.string().optional(),
});

/** Whether an answer was good: thumbs up or down (issue 35). */
export const ANSWER_RATINGS = ['up', 'down'] as const;
export type AnswerRating = (typeof ANSWER_RATINGS)[number];

/** The reader's own rating of an answer, as their chat shows it back. */
export const messageFeedbackSchema = z.object({ rating: z.enum(ANSWER_RATINGS), comment: z.string().nullable() });
export type MessageFeedback = z.infer<typeof messageFeedbackSchema>;

/** A chat message as the API renders it (docs/product.md §3): human, ai or action, with its data. */
export const chatMessageViewSchema = z.object({
  _id: z.string(),
  type: z.enum(['human', 'ai', 'action']),
  data: messageDataSchema,
  createdAt: z.string(),
  replyTo: z.string().nullable().optional(),
  /**
   * On an answer of a test chat (for its owner) or of a widget conversation (for its visitor): how that reader
   * rated it, when they did.
   */
  feedback: messageFeedbackSchema.optional(),
});
export type ChatMessageView = z.infer<typeof chatMessageViewSchema>;

/** A conversation to resume: its messages, its id and the Spark it belongs to. */
export const chatHistorySchema = z.object({
  messages: z.array(chatMessageViewSchema),
  sessionId: z.string(),
  sparkId: z.string().nullable(),
});
export type ChatHistory = z.infer<typeof chatHistorySchema>;

// — widgets: the `data` of an action message, told apart by `data.type` —

/** One entry of an `options`, `buttons` or `onboarding` widget: exactly one of value, goto or link. */
export const widgetChoiceSchema = z
  .object({
    label: z.string().min(1),
    /** What the chat sends when it is picked. */
    value: z.string().optional(),
    /** A route of the app (`/spark/{sparkId}`) the button opens. */
    goto: z.string().optional(),
    /** An external address the button opens. */
    link: z.string().optional(),
  })
  .refine((c) => [c.value, c.goto, c.link].filter((v) => v !== undefined).length === 1, {
    message: 'exactly one of value, goto or link',
  });
export type WidgetChoice = z.infer<typeof widgetChoiceSchema>;

/** A CSS colour the web may paint with: hex, rgb() or hsl(). */
export const CSS_COLOR = /^#[0-9a-f]{3,8}$|^rgba?\([\d\s.,%]+\)$|^hsla?\([\d\s.,%deg]+\)$/i;

export const paletteSchema = z.object({
  name: z.string(),
  primary: z.string().regex(CSS_COLOR),
  secondary: z.string().regex(CSS_COLOR),
});
export type Palette = z.infer<typeof paletteSchema>;

export const iconChoiceSchema = z.object({ name: z.string(), icon: z.string() });
export type IconChoice = z.infer<typeof iconChoiceSchema>;

/** How the Spark's chat widget will look on a website. */
export const widgetPreviewDataSchema = z.object({
  name: z.string(),
  initialMessage: z.string(),
  language: z.enum(LANGUAGES),
  palette: paletteSchema.nullable(),
  icon: z.string().nullable(),
});
export type WidgetPreviewData = z.infer<typeof widgetPreviewDataSchema>;

/**
 * An action message's fields, and the same fields rendered in each language (`i18n`, issue 34 item 3): the chat
 * shows the widget in the language the interface is in now, so that switching language turns its buttons and
 * cards at once. `i18n[lang]` holds only what differs from the fields as sent (older messages have none).
 */
const action = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({
    type: z.literal(type),
    content: z.string(),
    ...shape,
    i18n: z.partialRecord(z.enum(LANGUAGES), z.object(shape).partial()).optional(),
  });

export const optionsWidgetSchema = action('options', { options: z.array(widgetChoiceSchema) });
export const buttonsWidgetSchema = action('buttons', { buttons: z.array(widgetChoiceSchema) });
export const onboardingWidgetSchema = action('onboarding', { onboarding: z.array(widgetChoiceSchema) });
export const colorPaletteWidgetSchema = action('colorPalette', { palettes: z.array(paletteSchema) });
/** `palette`: the Spark's chosen colours, to show the icons in them (absent before one is chosen). */
export const iconSelectorWidgetSchema = action('iconSelector', {
  icons: z.array(iconChoiceSchema),
  palette: paletteSchema.omit({ name: true }).optional(),
});
/** A titled list of label/value lines (the system prompt, how Sparks work…). */
export const cardWidgetSchema = action('card', {
  title: z.string(),
  info: z.array(z.object({ label: z.string(), value: z.string() })),
});
/** The user's details: type/result lines. */
export const userCardWidgetSchema = action('userCard', {
  title: z.string(),
  info: z.array(z.object({ type: z.string(), result: z.string() })),
});
export const widgetPreviewWidgetSchema = action('widgetPreview', {
  title: z.string(),
  preview: widgetPreviewDataSchema,
});

/** The widgets the chat shows, one per `data.type`. */
export const widgetSchema = z.discriminatedUnion('type', [
  optionsWidgetSchema,
  buttonsWidgetSchema,
  onboardingWidgetSchema,
  colorPaletteWidgetSchema,
  iconSelectorWidgetSchema,
  cardWidgetSchema,
  userCardWidgetSchema,
  widgetPreviewWidgetSchema,
]);
export type Widget = z.infer<typeof widgetSchema>;
export type WidgetType = Widget['type'];
/** The widget whose `data.type` is `T`. */
export type WidgetOf<T extends WidgetType> = Extract<Widget, { type: T }>;

/** The zod-free list and the schemas name the same widget types (a compile error otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameWidgetTypes: Same<WidgetType, (typeof WIDGET_TYPES)[number]> = true;
void sameWidgetTypes;

/** An action message that announces something to the page (never shown): a Spark or a test created, an import. */
export const chatEventActionSchema = z.discriminatedUnion('event', [
  action('event', { event: z.literal('sparkCreated'), sparkId: z.string(), name: z.string() }),
  action('event', { event: z.literal('testCreated'), testId: z.string() }),
  /** A file picked from SharePoint or OneDrive is being imported: the page watches for it to be read (issue 20). */
  action('event', { event: z.literal('documentImport'), name: z.string() }),
  /** A pick refused by the plan's document count: the page opens the upgrade dialog an upload's 402 opens. */
  action('event', { event: z.literal('documentLimit'), limit: z.number() }),
]);
export type ChatEventAction = z.infer<typeof chatEventActionSchema>;

/** Every `data` an action message may carry. */
export const actionDataSchema = z.union([widgetSchema, chatEventActionSchema]);
export type ActionData = z.infer<typeof actionDataSchema>;

// — the chat's event stream: one JSON object per `data:` line —

export const tokenEventSchema = z.object({
  type: z.literal('token'),
  replyTo: z.string(),
  messageId: z.string(),
  text: z.string(),
});
export const messageEventSchema = z.object({
  type: z.literal('message'),
  replyTo: z.string().nullable().optional(),
  message: chatMessageViewSchema,
});
export const errorEventSchema = z.object({
  type: z.literal('error'),
  replyTo: z.string().optional(),
  code: z.string(),
  message: z.string(),
});
export const doneEventSchema = z.object({
  type: z.literal('done'),
  replyTo: z.string(),
  messages: z.array(chatMessageViewSchema),
});

/**
 * What happens in a conversation while a reply or an ingestion runs, published by the worker (and the
 * upload) on a Redis channel per conversation and relayed by the api to open event streams.
 */
export const conversationEventSchema = z.discriminatedUnion('type', [
  tokenEventSchema,
  messageEventSchema,
  errorEventSchema,
  doneEventSchema,
]);
export type ConversationEvent = z.infer<typeof conversationEventSchema>;

/** The first line of every chat stream: the conversation so far. */
export const historyEventSchema = chatHistorySchema.extend({ type: z.literal('history') });

/** What the event stream of a chat sends: the history, then the conversation's events. */
export const chatStreamEventSchema = z.discriminatedUnion('type', [
  historyEventSchema,
  tokenEventSchema,
  messageEventSchema,
  errorEventSchema,
  doneEventSchema,
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;
