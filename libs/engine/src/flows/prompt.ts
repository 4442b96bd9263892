/**
 * The Spark's instructions (system prompt), written from what the owner told the builder. With a language
 * model, the model writes the part about the business (`writeInstructions` of the flows' ports, checked by
 * `cleanInstructions`); who the assistant is and the rules it must keep are always this file's text, so a
 * model cannot drop them. Without a model, or when what it wrote does not pass, the template writes it all.
 */

import { t } from '@sparks/core';
import { label, msg, type FlowTextKey } from './texts';
import type { SparkInfo } from './ports';

/** The tone's words in the Spark's instructions and in what the builder understood. */
export const TONE_TEXT: Record<string, FlowTextKey> = {
  friendly: 'toneFriendly',
  professional: 'toneProfessional',
  fun: 'toneFun',
};
const PURPOSES: Record<string, FlowTextKey> = {
  questions: 'purposeQuestions',
  sell: 'purposeSell',
  bookings: 'purposeBookings',
  support: 'purposeSupport',
};

/** What the model is given to write from: the Spark's facts, in the words the template would use. */
export interface InstructionFacts {
  name: string;
  business?: string;
  description?: string;
  goal?: string;
  tone: string;
  hours?: string;
  /** The Spark's language, named in that language ("English", "español"). */
  language: string;
}

const toneOf = (s: SparkInfo) => label(s.language, msg(TONE_TEXT[s.tone ?? 'friendly'] ?? TONE_TEXT.friendly));
function purposeOf(s: SparkInfo): string {
  const key = s.purpose ? PURPOSES[s.purpose] : undefined;
  return key ? label(s.language, msg(key)) : (s.purpose ?? '');
}

export function instructionFacts(s: SparkInfo): InstructionFacts {
  const facts: InstructionFacts = { name: s.name, tone: toneOf(s), language: t(s.language, 'engine.languageName') };
  if (s.business && s.business !== s.name) facts.business = s.business;
  if (s.description) facts.description = s.description;
  const goal = purposeOf(s);
  if (goal) facts.goal = goal;
  if (s.hours) facts.hours = s.hours;
  return facts;
}

/** Bounds of the model's part: shorter is no description, longer is not what was asked. */
const INSTRUCTIONS_MIN = 40;
export const INSTRUCTIONS_MAX = 1200;

// Controls but tab and line breaks, zero-width and bidirectional marks, the byte-order mark.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const LINKS = /\b(?:https?:\/\/|www\.)[^\s)>\]]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi;
const ROLE_LINE = /^\s*(system|assistant|user|developer)\s*:/im;

/**
 * The model's part of the instructions as plain text of one paragraph, or undefined when it will not do:
 * empty, shorter than `INSTRUCTIONS_MIN` or longer than `INSTRUCTIONS_MAX` characters, JSON, a
 * conversation's role line, a template's `{placeholder}`, the answer engine's not-covered mark, or a link
 * or an e-mail address that the facts do not hold (a model may not invent where to send people).
 * Markdown, HTML and invisible characters are taken out; list items become sentences.
 */
export function cleanInstructions(raw: string, facts: InstructionFacts): string | undefined {
  let text = raw.normalize('NFC').replace(/\r\n?/g, '\n').replace(INVISIBLE, '').replace(/\t/g, ' ');
  text = text.trim().replace(/^["“«']([^]*)["”»']$/, '$1');
  text = text.replace(/^\s*```[\w-]*\s*$/gm, '');
  text = text.replace(/<(script|style)\b[^]*?(<\/\1\s*>|$)/gi, ' ').replace(/<[^>\n]*>/g, ' ');
  text = text.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, '$1 ($2)');
  text = text
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(#{1,6}\s+|>\s*|[-*•]\s+|\d+[.)]\s+)/, '')
        .replace(/(\*\*|__|`)/g, '')
        .trim(),
    )
    .filter(Boolean)
    .map((line) => (/[.!?:;…]$/.test(line) ? line : `${line}.`))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length < INSTRUCTIONS_MIN || text.length > INSTRUCTIONS_MAX) return undefined;
  if (/^[{[]/.test(text) || ROLE_LINE.test(raw) || /\{\w+\}/.test(text) || text.includes('[NONE]')) return undefined;
  const given = Object.values(facts).join(' ').toLowerCase();
  for (const link of text.match(LINKS) ?? []) {
    if (!given.includes(link.replace(/[.,;:]+$/, '').toLowerCase())) return undefined;
  }
  return text;
}

/**
 * In the Spark's language; the values go in as the owner typed them (the prompt is not markdown). With
 * `written` (the model's part) that passes `cleanInstructions`, it stands between the template's first
 * sentence (who the assistant is) and its rules (the language, the tone, only the documents, never invent);
 * otherwise the template's own sentences about the business are used.
 */
/**
 * One of the template's sentences around the owner's own words: "The business: {description}." ends with the
 * template's full stop, so the owner's own closing stop is dropped ("…a domicilio.." read as a typo), and after
 * their "!", "?" or "…" the template adds none.
 */
function around(lang: SparkInfo['language'], key: FlowTextKey, name: string, value: string): string {
  const words = value.trim().replace(/\.+$/, '');
  const text = label(lang, msg(key), { [name]: words });
  return /[!?…]$/.test(words) ? text.replace(`${words}.`, words) : text;
}

export function buildPrompt(s: SparkInfo, written?: string): string {
  const lang = s.language;
  const purpose = purposeOf(s);
  const middle = written ? cleanInstructions(written, instructionFacts(s)) : undefined;
  return [
    label(lang, msg('promptIntro'), { name: s.name, business: s.business || s.name }),
    ...(middle
      ? [middle]
      : [
          s.description ? around(lang, 'promptBusiness', 'description', s.description) : '',
          purpose ? around(lang, 'promptGoal', 'purpose', purpose) : '',
          s.hours ? around(lang, 'promptHours', 'hours', s.hours) : '',
        ]),
    label(lang, msg('promptRules'), { tone: toneOf(s) }),
  ]
    .filter(Boolean)
    .join(' ');
}
