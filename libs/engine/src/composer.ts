import { escapeMarkdown, isStartKeyword } from '@sparks/contracts';
import { t } from '@sparks/core';
import type { Passage } from './retrieval';
import type { Lang } from './texts';

/** docs/product.md §4: the start keywords a client sends to open a chat; hidden in the history (`@sparks/contracts`). */
export { isStartKeyword };

const GREETINGS = [
  'hola',
  'buenas',
  'buenos dias',
  'buenos días',
  'buenas tardes',
  'buenas noches',
  'hey',
  'hi',
  'hello',
  'good morning',
  'good afternoon',
  'good evening',
  'saludos',
  'qué tal',
  'que tal',
];

const normalize = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[¡!¿?.,;:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Whether the message is one of the phrases, maybe followed by up to `extra` more words ("thanks a lot"). */
const onlySays = (s: string, phrases: string[], extra = 2) =>
  !!s && phrases.some((g) => s === g || (s.startsWith(`${g} `) && s.split(' ').length <= g.split(' ').length + extra));

/** A message that only greets: answered with the Spark's initial message. */
export function isGreeting(text: string): boolean {
  if (isStartKeyword(text)) return true;
  return onlySays(normalize(text), GREETINGS);
}

const THANKS = [
  'thanks',
  'thank you',
  'thx',
  'ty',
  'cheers',
  'great thanks',
  'ok thanks',
  'gracias',
  'muchas gracias',
  'mil gracias',
  'vale gracias',
  'ok gracias',
  'genial gracias',
  'perfecto gracias',
];
const GOODBYES = [
  'bye',
  'goodbye',
  'good bye',
  'bye bye',
  'see you',
  'see you later',
  'have a nice day',
  'adiós',
  'adios',
  'hasta luego',
  'hasta pronto',
  'hasta mañana',
  'chao',
  'chau',
  'nos vemos',
  'buen día',
  'que tengas un buen día',
];

/**
 * Small talk that is not a question (issue 18 item 15): a greeting, thanks or a goodbye. It gets a
 * short polite reply and is never a question the documents failed to answer.
 */
export function smallTalk(text: string): 'greeting' | 'thanks' | 'goodbye' | undefined {
  if (isGreeting(text)) return 'greeting';
  const s = normalize(text);
  if (onlySays(s, THANKS, 3)) return 'thanks';
  if (onlySays(s, GOODBYES, 3)) return 'goodbye';
  return undefined;
}

export interface Composition {
  kind: 'greeting' | 'answer' | 'notCovered';
  text: string;
  sources: Array<{ documentId: string; document: string; page: number; addedBy?: 'owner' }>;
}

/**
 * How a passage is cited (markdown-escaped): its document and page, or, for an answer the owner wrote
 * to an unanswered question, "added by you" in the owner's tests and "answered by our team" to visitors.
 */
export function citeLabel(p: Passage, language: Lang, audience?: 'owner' | 'visitor'): string {
  if (p.origin === 'owner') return t(language, audience === 'visitor' ? 'engine.addedByTeam' : 'engine.addedByYou');
  return t(language, 'engine.source', { document: escapeMarkdown(p.documentName), page: p.page });
}
