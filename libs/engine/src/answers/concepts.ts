/**
 * What customers ask a small business about, in English and Spanish (issue 29 item 4; docs/decisions.md,
 * "Answers from business documents"): each concept lists the words and phrases that say it in each
 * language. A question's word that belongs to a concept matches, in the documents, every word of the
 * concept — its synonyms in the same language (at a lower weight: a paraphrase is less sure than the
 * question's own word) and its translations (at full weight when the question is in the other language:
 * a translation is its only way in). Words are written as people write them; matching stems each with
 * its language's Snowball stemmer, so one form of a regular word is enough.
 *
 * - `also`: words the concept's words also find, not the other way round ("weekdays" finds "Monday", a
 *   question about Monday is not about Friday).
 * - `intent`: the concept says what kind of answer is wanted (a price, the opening hours, the address),
 *   not what about: such words are never the subject a document must mention.
 * - `light`: everyday words that do not make a question's subject ("today", "mum", "come"): a question
 *   is not refused because the documents lack them.
 */
import { ASKED } from './concepts/asked';
import { EVERYDAY } from './concepts/everyday';
import { TRADES } from './concepts/trades';

export type Intent =
  | 'price'
  | 'hours'
  | 'open'
  | 'close'
  | 'where'
  | 'phone'
  | 'whatsapp'
  | 'email'
  | 'web'
  | 'payment'
  | 'time'
  | 'duration'
  | 'how';

export interface Concept {
  en: string[];
  es: string[];
  also?: { en?: string[]; es?: string[] };
  intent?: Intent;
  light?: boolean;
}

/**
 * Every concept, in three lists: what customers ask about and the words around it (concepts/asked.ts), the
 * words of common trades (concepts/trades.ts), and the words that say nothing of a question's subject
 * (concepts/everyday.ts).
 */
export const CONCEPTS: Concept[] = [...ASKED, ...TRADES, ...EVERYDAY];
