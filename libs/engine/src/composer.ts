import { escapeMarkdown } from '@sparks/contracts';
import type { Passage } from './retrieval';
import { t, type Lang } from './texts';

/** Spec §4: the start keywords a client sends to open a chat; hidden in the history. */
export function isStartKeyword(text: string): boolean {
  const s = text.trim().toLowerCase();
  return s === 'inicio' || s === 'start' || /^inicio en \S+$/.test(s) || /^start in \S+$/.test(s);
}

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

/** A message that only greets: answered with the Spark's initial message. */
export function isGreeting(text: string): boolean {
  if (isStartKeyword(text)) return true;
  const s = text
    .trim()
    .toLowerCase()
    .replace(/[¡!¿?.,;:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!s) return false;
  return GREETINGS.some((g) => s === g || (s.startsWith(`${g} `) && s.split(' ').length <= g.split(' ').length + 2));
}

/** A passage answers when it holds at least half of the question's search terms. */
export function covers(p: Passage): boolean {
  return p.terms > 0 && p.matched * 2 >= p.terms;
}

export interface Composition {
  kind: 'greeting' | 'answer' | 'notCovered';
  text: string;
  sources: Array<{ documentId: string; document: string; page: number }>;
}

/** Markdown (one line) as a block quote. */
const quote = (markdown: string) => `> ${markdown.replace(/\s+/g, ' ').trim()}`;

/**
 * The offline answer: no language model, only what the documents say, quoted with their source.
 */
export function composeOffline(input: {
  question: string;
  language: Lang;
  initialMessage: string;
  passages: Passage[];
  hasDocuments: boolean;
}): Composition {
  if (isGreeting(input.question)) return { kind: 'greeting', text: escapeMarkdown(input.initialMessage), sources: [] };
  const relevant = input.passages.filter(covers).slice(0, 3);
  if (relevant.length === 0) {
    return {
      kind: 'notCovered',
      text: t(input.language, input.hasDocuments ? 'notCovered' : 'noDocuments'),
      sources: [],
    };
  }
  const blocks = relevant.map(
    (p) =>
      `${quote(p.excerpt || escapeMarkdown(p.content.replace(/\s+/g, ' ')))}\n>\n> — *${t(input.language, 'source', { document: escapeMarkdown(p.documentName), page: p.page })}*`,
  );
  return {
    kind: 'answer',
    text: `${t(input.language, 'found')}\n\n${blocks.join('\n\n')}`,
    sources: relevant.map((p) => ({ documentId: p.documentId, document: p.documentName, page: p.page })),
  };
}
