import OpenAI from 'openai';
import { t } from '@sparks/core';
import { businessFactsSchema, businessJsonSchema, cleanFacts, type BusinessFacts } from './flows/business';
import type { SparkInfo } from './flows/ports';
import { replyJsonSchema, replyReadingSchema, type ModelReading } from './flows/understanding';
import { cleanInstructions, instructionFacts } from './flows/prompt';
import type { Passage } from './retrieval';
import type { Lang } from './texts';

export interface LlmSettings {
  baseURL?: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export interface LlmTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** What the model writes, alone, when the numbered passages do not answer the question. */
export const NOT_COVERED_MARK = '[NONE]';

export interface GroundedReply {
  /** The reply as the model wrote it (with its [n] markers); empty when not covered. */
  text: string;
  /** The passage numbers (1-based) the reply cites, in order of first mention, only those that exist. */
  cited: number[];
  notCovered: boolean;
}

/** The [n] markers of a reply ([1], [2], [1, 3]), in order of first mention, kept to 1…count. */
export function citedPassages(text: string, count: number): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const n of m[1].split(/[,;]/).map((s) => Number(s.trim()))) {
      if (n >= 1 && n <= count && !out.includes(n)) out.push(n);
    }
  }
  return out;
}

/**
 * Earlier turns as the model should read them: the Spark's replies without their sources line and
 * [n] markers, which numbered other passages than this question's.
 */
export function plainTurns(history: LlmTurn[]): LlmTurn[] {
  return history.map((turn) =>
    turn.role === 'assistant'
      ? {
          role: turn.role,
          content: turn.content
            .replace(/\n\n— \*[\s\S]*$/, '')
            .replace(/\s*\[\d+(?:\s*[,;]\s*\d+)*\]/g, '')
            .trim(),
        }
      : turn,
  );
}

/**
 * What the prompt calls a passage: `document, page p`; an answer the owner wrote to an unanswered
 * question is no page of a document, so it is labelled as the business's own answer to that question
 * (its entry's name), on one line.
 */
export function passageLabel(language: Lang, p: Passage): string {
  if (p.origin === 'owner') {
    return t(language, 'engine.llmOwnerAnswer', { question: p.documentName.replace(/\s+/g, ' ').trim() });
  }
  return t(language, 'engine.source', { document: p.documentName, page: p.page });
}

/** The passages as the prompt numbers them: `[n] label` (see `passageLabel`), then the text. */
export function numberedPassages(language: Lang, passages: Passage[]): string {
  return passages.map((p, i) => `[${i + 1}] ${passageLabel(language, p)}\n${p.content}`).join('\n\n');
}

/** The instructions' paragraph: the length asked for, and the tokens allowed (room above it, not for essays). */
const WRITE_ASKED_CHARS = 600;
const WRITE_MAX_TOKENS = 400;

/**
 * Any OpenAI-compatible chat-completions endpoint, through the official client. Every call is bounded
 * by `timeoutMs` as a whole (the client's own timeout covers only the wait for the first byte).
 */
export class LlmProvider {
  private readonly client: OpenAI;

  constructor(private readonly settings: LlmSettings) {
    this.client = new OpenAI({
      baseURL: settings.baseURL,
      apiKey: settings.apiKey ?? 'not-needed',
      timeout: settings.timeoutMs,
      maxRetries: 0,
    });
  }

  get model(): string {
    return this.settings.model;
  }

  private deadline(): { signal: AbortSignal; done: () => void } {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error('language model timed out')), this.settings.timeoutMs);
    return { signal: abort.signal, done: () => clearTimeout(timer) };
  }

  /**
   * A reply grounded in the numbered passages, streamed token by token. The beginning is held back
   * while it could still be the not-covered mark, so that the mark never reaches the chat.
   * Throws on provider errors, time-outs and empty replies.
   */
  async answer(input: {
    sysPrompt: string;
    language: Lang;
    passages: Passage[];
    history: LlmTurn[];
    question: string;
    onToken: (text: string) => void | Promise<void>;
  }): Promise<GroundedReply> {
    const instructions = t(input.language, 'engine.llmInstructions', {
      language: t(input.language, 'engine.languageName'),
      none: NOT_COVERED_MARK,
    });
    const system = [input.sysPrompt.trim(), instructions, numberedPassages(input.language, input.passages)]
      .filter(Boolean)
      .join('\n\n');
    const { signal, done } = this.deadline();
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          stream: true,
          temperature: 0.2,
          messages: [
            { role: 'system', content: system },
            ...plainTurns(input.history),
            { role: 'user', content: input.question },
          ],
        },
        { signal },
      );
      let text = '';
      let held = true;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta?.content ?? '';
        if (!delta) continue;
        text += delta;
        if (held) {
          const start = text.trimStart();
          if (NOT_COVERED_MARK.startsWith(start) || start.startsWith(NOT_COVERED_MARK)) continue;
          held = false;
          await input.onToken(text.trimStart());
        } else {
          await input.onToken(delta);
        }
      }
      // The client ends an aborted stream quietly: a cut-off reply must not pass for a whole one.
      if (signal.aborted) throw new Error('language model timed out');
      const reply = text.trim();
      if (!reply) throw new Error('empty completion');
      if (held) return { text: '', cited: [], notCovered: true };
      return { text: reply, cited: citedPassages(reply, input.passages.length), notCovered: false };
    } finally {
      done();
    }
  }

  /**
   * What an owner's free text says about the business (name, description, tone, opening hours), as
   * JSON checked against `businessFactsSchema`. Throws when the model fails or answers something else.
   */
  async readBusiness(text: string, language: Lang): Promise<BusinessFacts> {
    const { signal, done } = this.deadline();
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          temperature: 0,
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'business', strict: true, schema: businessJsonSchema() },
          },
          messages: [
            { role: 'system', content: t(language, 'engine.llmReadBusiness') },
            { role: 'user', content: text },
          ],
        },
        { signal },
      );
      const content = completion.choices[0]?.message?.content ?? '';
      const json = /\{[\s\S]*\}/.exec(content)?.[0];
      if (!json) throw new Error('the model answered no JSON object');
      return cleanFacts(businessFactsSchema.parse(JSON.parse(json)));
    } finally {
      done();
    }
  }

  /**
   * What an owner's reply to a step of the builder means (agree, keep, change X to Y, a value…), as JSON checked
   * against `replyReadingSchema`: asked only when the offline rules are not sure. Throws when the model fails or
   * answers something else.
   */
  async readReply(input: {
    instructions: string;
    step: Record<string, unknown>;
    reply: string;
  }): Promise<ModelReading> {
    const { signal, done } = this.deadline();
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          temperature: 0,
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'reply', strict: true, schema: replyJsonSchema() },
          },
          messages: [
            { role: 'system', content: input.instructions },
            { role: 'user', content: JSON.stringify({ step: input.step, reply: input.reply }) },
          ],
        },
        { signal },
      );
      const json = /\{[\s\S]*\}/.exec(completion.choices[0]?.message?.content ?? '')?.[0];
      if (!json) throw new Error('the model answered no JSON object');
      return replyReadingSchema.parse(JSON.parse(json));
    } finally {
      done();
    }
  }

  /**
   * The part of a Spark's instructions about its business, written from its facts (`instructionFacts`,
   * sent as JSON) in its language: one paragraph of plain text, bounded by `max_tokens` and checked by
   * `cleanInstructions`. Throws when the model fails, is cut off, or writes something that does not pass.
   */
  async writeInstructions(spark: SparkInfo): Promise<string> {
    const facts = instructionFacts(spark);
    const { signal, done } = this.deadline();
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          temperature: 0.3,
          max_tokens: WRITE_MAX_TOKENS,
          messages: [
            {
              role: 'system',
              content: t(spark.language, 'engine.llmWriteInstructions', {
                language: facts.language,
                max: WRITE_ASKED_CHARS,
              }),
            },
            { role: 'user', content: JSON.stringify(facts) },
          ],
        },
        { signal },
      );
      const choice = completion.choices[0];
      if (choice?.finish_reason === 'length') throw new Error('the instructions were cut off');
      const text = cleanInstructions(choice?.message?.content ?? '', facts);
      if (!text) throw new Error('the model wrote no usable instructions');
      return text;
    } finally {
      done();
    }
  }
}
