import { escapeMarkdown, isStartKeyword } from '@sparks/contracts';
import { RANKING } from './ranking';
import type { Passage } from './retrieval';
import { t, type Lang } from './texts';

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

/**
 * A passage answers when it holds enough of the question's search terms, each weighing what it
 * tells apart in this Spark (ranking.ts: IDF-weighted coverage of at least RANKING.MIN_COVERAGE).
 */
export function covers(p: Passage): boolean {
  return p.terms > 0 && p.coverage >= RANKING.MIN_COVERAGE;
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
  if (p.origin === 'owner') return t(language, audience === 'visitor' ? 'addedByTeam' : 'addedByYou');
  return t(language, 'source', { document: escapeMarkdown(p.documentName), page: p.page });
}

/**
 * The offline answer: no language model, only what the documents say. It leads with the one
 * sentence (or list line) of the best passage that answers, as the document says it, then its
 * source; other passages that also cover the question are listed as further sources.
 */
export function composeOffline(input: {
  question: string;
  language: Lang;
  initialMessage: string;
  passages: Passage[];
  hasDocuments: boolean;
  /** Who is asking: the owner (a test) reads "added by you" under their own answers, a visitor "our team". */
  audience?: 'owner' | 'visitor';
}): Composition {
  const talk = smallTalk(input.question);
  if (talk === 'greeting') return { kind: 'greeting', text: escapeMarkdown(input.initialMessage), sources: [] };
  if (talk)
    return { kind: 'greeting', text: t(input.language, talk === 'thanks' ? 'welcome' : 'goodbye'), sources: [] };
  const relevant = input.passages.filter(covers).slice(0, 3);
  if (relevant.length === 0) {
    return {
      kind: 'notCovered',
      text: t(input.language, input.hasDocuments ? 'notCovered' : 'noDocuments'),
      sources: [],
    };
  }
  const [top] = relevant;
  const sentence = escapeMarkdown((top.best || top.content).replace(/\s+/g, ' ').trim());
  const cite = (p: Passage) => citeLabel(p, input.language, input.audience);
  const more = relevant.slice(1).filter((p) => p.documentId !== top.documentId || p.page !== top.page);
  const seeAlso = more.length
    ? `\n${t(input.language, 'seeAlso', { sources: [...new Set(more.map(cite))].join('; ') })}`
    : '';
  return {
    kind: 'answer',
    text: `${sentence}\n\n— *${cite(top)}*${seeAlso}`,
    sources: relevant.map((p) => ({
      documentId: p.documentId,
      document: p.documentName,
      page: p.page,
      ...(p.origin === 'owner' ? { addedBy: 'owner' as const } : {}),
    })),
  };
}
