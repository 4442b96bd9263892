/**
 * The understanding layer: every reply is read (classify.ts) before a step acts on it. These are the readings the
 * builder's own code needs outside a turn (the file browser), and what the language model is given and must answer
 * when it reads a reply the rules are not sure of.
 */

import { z } from 'zod';
import { classifyReply, type Ask, type Reading } from './classify';

export { classifyReply, type Ask, type Reading } from './classify';
export { FIELD_CHOICES, type Field } from './fields';

/** Below this, a reading of the rules is not acted on by itself (a model may read the reply instead). */
export const SURE_ENOUGH = 0.6;

/** A yes or a no to a yes/no question, when the reply is sure to be one. */
export function yesNo(text: string): 'yes' | 'no' | undefined {
  const r = classifyReply(text, { kind: 'confirm' });
  if (r.confidence < SURE_ENOUGH) return undefined;
  return r.kind === 'agree' ? 'yes' : r.kind === 'disagree' ? 'no' : undefined;
}

/** The reply asks to move on without the step ("skip", "luego", "later, I'm busy"). */
export const isSkip = (text: string) => {
  const r = classifyReply(text, { kind: 'wait' });
  return r.kind === 'skip' && r.confidence >= SURE_ENOUGH;
};

const FIELDS = ['name', 'greeting', 'description', 'palette', 'icon', 'tone', 'language'] as const;

/** What the model answers when asked to read a reply (structured output): every field present, null when unused. */
export const replyReadingSchema = z
  .object({
    kind: z.enum(['agree', 'disagree', 'keep', 'change', 'skip', 'value', 'question', 'other']),
    field: z.enum(FIELDS).nullable().describe('With change: which value of the Spark the reply changes.'),
    value: z
      .string()
      .nullable()
      .describe('With value or change: the value as the owner wrote it, or the value of the choice meant.'),
    unusual: z.boolean().describe('With value: it does not look like what was asked (confirm it first).'),
  })
  .strict();

/** The JSON schema sent as `response_format` (strict structured output, without `$schema`). */
export function replyJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(replyReadingSchema);
  return schema;
}

export type ModelReading = z.infer<typeof replyReadingSchema>;

/** What the model is told about the step the reply answers. */
export function askForModel(ask: Ask, question: string): Record<string, unknown> {
  return {
    question,
    expects: ask.kind,
    ...(ask.kind === 'value' ? { field: ask.field, canKeepCurrent: !!ask.keep } : {}),
    ...(ask.kind === 'choice'
      ? { field: ask.field ?? null, choices: ask.choices.map((c) => ({ value: c.value, label: c.label.en })) }
      : {}),
  };
}

/** The model's answer as a reading, or undefined when it says nothing usable. */
export function readingOf(raw: ModelReading, ask: Ask): Reading | undefined {
  const reading: Reading = { kind: raw.kind, confidence: 0.75 };
  if (raw.kind === 'change') {
    if (!raw.field || !raw.value) return undefined;
    reading.field = raw.field;
    reading.value = raw.value;
  }
  if (raw.kind === 'value') {
    if (!raw.value) return undefined;
    if (ask.kind === 'choice' && !ask.choices.some((c) => c.value === raw.value)) return undefined;
    reading.value = raw.value;
    if (raw.unusual) reading.unusual = true;
  }
  return reading;
}
