import { highlightMarkdown, TEXT_SEARCH_CONFIGS, textSearchConfig, type TextSearchConfig } from '@sparks/contracts';
import { splitSentences } from '@sparks/core';
import { LEXICON, lexiconWords, PHRASES } from './lexicon';
import { fold, idf, rankPassages, RANKING, type WeightedTerm } from './ranking';
import {
  chooseSources,
  languageSearch,
  planSearch,
  quote,
  RETRIEVAL,
  sampleCovers,
  type SampleView,
  type SearchPlan,
  type Term,
  type TierSource,
} from './retrieval-plan';
import type { KnowledgeSearch } from './search-port';

export * from './retrieval-plan';

/** The text-search configuration of a language (one rule, in `@sparks/contracts`). */
export type TextConfig = TextSearchConfig;
export const configFor = textSearchConfig;

export interface Passage {
  chunkId: string;
  documentId: string;
  documentName: string;
  page: number;
  content: string;
  /**
   * Markdown: the chunk's sentences that hold the question's words, as the document says them
   * (escaped), those words in **bold**.
   */
  excerpt: string;
  rank: number;
  /** How many of the question's search terms the passage contains, out of `terms`. */
  matched: number;
  terms: number;
  /** Whether the passage contains every term (websearch_to_tsquery semantics). */
  strict: boolean;
  /** The reranker's score (ranking.ts): passages come best first. */
  score: number;
  /** Weighted share (0–1) of the question's terms the passage holds; see RANKING.MIN_COVERAGE. */
  coverage: number;
  /** The passage's sentence that best answers the question, as the document says it (plain text). */
  best: string;
  /** `owner`: an answer the owner wrote to an unanswered question (its chunk is the question, a line break, the answer). */
  origin?: 'file' | 'owner';
  /** The text-search configuration the chunk was indexed with: its document's language. */
  config?: TextConfig;
  /** The business facts read from its lines at ingestion (`BusinessFact` of @sparks/core), if any. */
  facts?: readonly object[];
}

/** What the lexicon adds to a question term whose stem is one of its words. */
export interface LexiconTerm {
  alts: string[];
  generic: boolean;
}

let lexiconStems: Promise<Map<TextConfig, Map<string, LexiconTerm>>> | undefined;

/**
 * The lexicon (lexicon.ts) stemmed by PostgreSQL, once per process: per text-search configuration, the
 * stem of each of its words in that language, with the stems of the words it also matches (each stemmed
 * in its own language). A word the configuration reads as a stop word, or as several words, is left out.
 */
export function lexiconTerms(search: KnowledgeSearch): Promise<Map<TextConfig, Map<string, LexiconTerm>>> {
  lexiconStems ??= (async () => {
    const all = lexiconWords();
    const stems = await search.lexemes(
      all.map((w) => w.word),
      all.map((w) => configFor(w.lang)),
    );
    const stemOf = new Map<number, string>();
    stems.forEach((s, i) => {
      if (s.length === 1) stemOf.set(i, s[0]);
    });
    const byConfig = new Map<TextConfig, Map<string, LexiconTerm>>(TEXT_SEARCH_CONFIGS.map((c) => [c, new Map()]));
    LEXICON.forEach((entry, e) => {
      const words = all.map((w, i) => ({ ...w, stem: stemOf.get(i) })).filter((w) => w.entry === e && w.stem);
      for (const w of words.filter((x) => x.role === 'word')) {
        const map = byConfig.get(configFor(w.lang))!;
        const known = map.get(w.stem!) ?? { alts: [], generic: false };
        const alts = new Set([...known.alts, ...words.map((x) => x.stem!)]);
        alts.delete(w.stem!);
        map.set(w.stem!, { alts: [...alts], generic: known.generic || entry.generic === true });
      }
    });
    return byConfig;
  })().catch((err: unknown) => {
    lexiconStems = undefined;
    throw err;
  });
  return lexiconStems;
}

/**
 * One round trip: the question's terms in both languages, and which of the Spark's first chunks
 * hold each of them (and every word of the question).
 */
async function readTerms(
  search: KnowledgeSearch,
  sparkId: string,
  question: string,
  lexicon: Map<TextConfig, Map<string, LexiconTerm>>,
): Promise<Map<TextConfig, { terms: Term[]; sample: SampleView }>> {
  // The lexicon's alternatives of the question's words, as tsquery text to OR with the term's own operand.
  const questionWords = question.split(/[^\p{L}\p{N}]+/u).map(fold);
  const alts: Record<string, Record<string, string>> = {};
  for (const [config, stems] of lexicon) {
    for (const [stem, entry] of stems) {
      const f = fold(stem);
      if (!questionWords.some((w) => w.startsWith(f))) continue;
      (alts[config] ??= {})[stem] = entry.alts.map((a) => ` | ${quote(a)}`).join('');
    }
  }
  const result = await search.sampleTerms({ sparkId, question, sampleSize: RETRIEVAL.SAMPLE, alts });
  const ids = result.find((r) => r.config === null)?.ids ?? [];
  const complete = ids.length < RETRIEVAL.SAMPLE;
  const langs = new Map<TextConfig, { terms: Term[]; sample: SampleView }>();
  for (const config of TEXT_SEARCH_CONFIGS) {
    const rows = result.filter((r) => r.config === config);
    const terms = rows.filter((r) => r.lexeme !== null);
    const known = lexicon.get(config);
    langs.set(config, {
      terms: terms.map((r) => {
        const entry = known?.get(r.lexeme!);
        return entry
          ? { lexeme: r.lexeme!, prefix: r.prefix, alts: entry.alts, generic: entry.generic }
          : { lexeme: r.lexeme!, prefix: r.prefix };
      }),
      sample: {
        ids,
        complete,
        termHits: terms.map((r) => r.hits ?? []),
        strictHits: rows.find((r) => r.lexeme === null)?.hits ?? [],
      },
    });
  }
  return langs;
}

/**
 * Full-text retrieval over a Spark's chunks, in bounded time (docs/decisions.md, "Retrieval in
 * bounded time"). A question's terms match by stem prefix (the stem less its last two letters, so
 * that "hora" finds "horario" and "abrís" finds "abrimos"); a passage is worth returning when it
 * holds at least a third of them (RETRIEVAL.FLOOR), and the reranker (ranking.ts) orders them and
 * weighs how well they cover the question. The search goes tier by tier — every word of the question first,
 * then all of its terms, then one fewer… — and stops at the first tier that yields k passages;
 * within a tier at most CANDIDATES chunks are ranked by cover density. Tiers common in the Spark
 * are read from a sample of its chunks instead of the GIN indexes, whose cost grows with the
 * number of matches. The question is read in its own language (the one whose stop words leave fewer
 * terms; the Spark's on a tie), then in the other only when that leaves no more terms and the first
 * yields no passage that covers the question.
 */
export async function retrieve(
  search: KnowledgeSearch,
  params: { sparkId: string; question: string; language: 'es' | 'en'; k?: number; rerank?: boolean },
): Promise<Passage[]> {
  const k = params.k ?? 4;
  // Without the reranker (the tier tests): the k best passages in PostgreSQL's order.
  const pool = params.rerank === false ? k : Math.max(k, RETRIEVAL.POOL);
  const own = configFor(params.language);
  const otherConfig: TextConfig = own === 'spanish' ? 'english' : 'spanish';
  const text = searchText(params.question);
  const langs = await readTerms(search, params.sparkId, text, await lexiconTerms(search));
  // The question's language: the one whose stop words leave fewer terms (the Spark's on a tie).
  const first = langs.get(otherConfig)!.terms.length < langs.get(own)!.terms.length ? otherConfig : own;
  const order: TextConfig[] = [first, first === 'spanish' ? 'english' : 'spanish'];
  const searches: Array<{ config: TextConfig; plan: SearchPlan; sources: TierSource[]; weighted: WeightedTerm[] }> = [];
  for (const config of order) {
    const lang = langs.get(config)!;
    // Never the question read as another language than its own: an English question read as
    // Spanish keeps "the", "was", "of" as terms, which match anything.
    if (config !== first && lang.terms.length > langs.get(first)!.terms.length) break;
    const plan = planSearch(lang.terms);
    // A tier taken from the sample must be able to fill the k places by itself.
    const sources = chooseSources(plan, lang.sample, Math.max(RETRIEVAL.DENSE, pool));
    // Term weights from the sample (the whole Spark when it is small); equal weights when the
    // sample is too small to tell a rare term from a common one.
    const n = lang.sample.ids.length;
    const weighted = lang.terms.map((t, i) => ({
      stem: fold(t.lexeme),
      prefix: t.prefix === null ? null : fold(t.prefix),
      ...(t.alts
        ? { alts: t.alts.map(fold), generic: t.generic === true, altWeight: config === own ? RANKING.ALT_MATCH : 1 }
        : {}),
      idf: n < RANKING.MIN_CHUNKS_FOR_IDF ? 1 : idf(lang.sample.termHits[i]?.length ?? 0, n),
    }));
    if (sources.length > 0) searches.push({ config, plan, sources, weighted });
    // The sample already shows a passage in this language that covers the question.
    if (sampleCovers(plan, lang.sample, sources)) break;
  }
  if (searches.length === 0) return [];

  const rows = await search.findPassages({
    sparkId: params.sparkId,
    question: text,
    limit: pool,
    candidates: RETRIEVAL.CANDIDATES,
    floor: RETRIEVAL.FLOOR,
    languages: searches.map((s) => languageSearch(s.config, s.plan, s.sources)),
  });
  const passages = rows.map((r) => {
    const { plan } = searches[Number(r.lang)];
    return {
      chunkId: r.chunkId,
      documentId: r.documentId,
      documentName: r.documentName,
      page: Number(r.page),
      content: r.content,
      excerpt: sentencesAbout(
        r.content,
        plan.terms.flatMap((t) => [t.prefix ?? t.lexeme, ...(t.alts ?? [])]),
      ),
      rank: Number(r.rank),
      matched: Number(r.matched),
      terms: plan.terms.length,
      strict: r.strict,
      score: 0,
      coverage: 0,
      best: '',
      origin: r.origin,
      config: r.config === 'spanish' ? ('spanish' as const) : ('english' as const),
      ...(r.facts ? { facts: r.facts } : {}),
    };
  });
  if (params.rerank === false) return passages;
  const lang = Number(rows[0]?.lang ?? 0);
  return rankPassages(passages, searches[lang].weighted, params.question)
    .slice(0, k)
    .map((r) => ({
      ...r.passage,
      score: r.score,
      coverage: r.best.coverage,
      // The owner's answer is found by its question, and answers with what the owner wrote.
      best: r.passage.origin === 'owner' ? ownerAnswer(r.passage.content) : r.best.text,
    }));
}

/**
 * Spanish question words, as a question writes them (with their accent) or without it: "¿Cuándo…?",
 * "¿Cuántos…?", "cual". PostgreSQL's Spanish stop words hold "cuando", "donde", "quien" but not their
 * accented forms nor "cual", "cuanto", so "¿Cómo…?" became a term "com" that matched "comenzó" and
 * "compañía", while the English "how", "when", "which" are stop words. The search leaves them out in
 * both languages alike; the ranking still reads them from the question (what kind of answer it asks for).
 */
const QUESTION_WORDS =
  /(?<![\p{L}\p{N}])(c[oó]mo|cu[aá]ndo|d[oó]nde|ad[oó]nde|qui[eé]n(?:es)?|cu[aá]l(?:es)?|cu[aá]nt[oa]s?|qu[eé])(?![\p{L}\p{N}])/giu;

/**
 * The question as the search reads it: Spanish question words left out (see QUESTION_WORDS), the
 * lexicon's phrases as its one word ("entre semana" → "entresemana", lexicon.ts).
 */
export function searchText(question: string): string {
  const text = PHRASES.reduce((q, [phrase, word]) => q.replace(phrase, word), question)
    .replace(QUESTION_WORDS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? question : text;
}

/** The answer part of an owner's knowledge entry (the chunk is the question, a line break, the answer). */
export function ownerAnswer(content: string): string {
  const cut = content.indexOf('\n');
  return (cut < 0 ? content : content.slice(cut + 1)).trim();
}

/**
 * The one or two whole sentences of a passage that hold most of the question's terms, in their
 * order, as markdown: the text escaped, the words that begin with a term in **bold**. Whole sentences
 * keep facts such as "hasta las 14:00" intact. A term may also begin a longer token PostgreSQL reads
 * as one word (an e-mail address, a web address); when no sentence holds any term, the first ones.
 */
export function sentencesAbout(content: string, prefixes: string[], max = 2): string {
  const folded = prefixes.map(fold);
  const sentences = splitSentences(content.replace(/\s+/g, ' '));
  const starts = (w: string) => {
    const f = fold(w);
    return folded.some((p) => f.startsWith(p));
  };
  const hits = (sentence: string) => {
    const words = [...sentence.split(/[^\p{L}\p{N}]+/u), ...sentence.split(' ')].map(fold);
    return new Set(folded.filter((p) => words.some((w) => w.startsWith(p)))).size;
  };
  const scored = sentences.map((text, i) => ({ text, i, score: hits(text) })).filter((x) => x.score > 0);
  const best = (scored.length > 0 ? scored : sentences.map((text, i) => ({ text, i, score: 0 })))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i);
  return best.map((b) => highlightMarkdown(b.text, starts)).join(' … ');
}
