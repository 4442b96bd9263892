import { highlightMarkdown, TEXT_SEARCH_CONFIGS, textSearchConfig, type TextSearchConfig } from '@sparks/contracts';
import { splitSentences } from '@sparks/core';
import type { Database } from '@sparks/db';
import { sql, type SQL } from 'drizzle-orm';
import { LEXICON, lexiconWords, PHRASES } from './lexicon';
import { fold, idf, rankPassages, RANKING, type WeightedTerm } from './ranking';

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

/**
 * Tuning of the search (see docs/decisions.md, "Retrieval in bounded time").
 * - SAMPLE: chunks of the Spark read first, oldest first; a Spark that small is searched entirely
 *   from them, without the full-text indexes.
 * - DENSE: a tier held by at least this many sampled chunks is common in the Spark: its candidates
 *   are taken from the sample instead of the index, whose cost grows with the number of matches.
 * - CANDIDATES: chunks ranked per tier at most.
 * - MAX_TERMS: question terms (the longest) the tiers are built from; C(6, 3) = 20 groups at most.
 * - POOL: passages read from PostgreSQL at least, which the reranker (ranking.ts) orders.
 * - FLOOR: a chunk is a candidate when it holds at least 1/FLOOR of the question's terms.
 */
export const RETRIEVAL = { SAMPLE: 200, DENSE: 7, CANDIDATES: 64, MAX_TERMS: 6, POOL: 12, FLOOR: 3 } as const;

/** A search term of the question: its stem and the stem prefix that also matches (null when < 3 letters). */
export interface Term {
  lexeme: string;
  prefix: string | null;
  /** Stems of other words the lexicon (lexicon.ts) lets the term match, each in its own language; whole stems. */
  alts?: string[];
  /** The term belongs to a `generic` lexicon entry (a price, the hours: what is asked, not what of). */
  generic?: boolean;
}

/** A tsquery operand, quoted (backslashes and quotes escaped as the tsquery parser wants). */
const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The term as the old loose query had it: stem prefix (`'hor':*`), or the exact stem when short. */
export const termQuery = (t: Term): string => {
  const own = t.prefix === null ? quote(t.lexeme) : `${quote(t.prefix)}:*`;
  return t.alts?.length ? `(${[own, ...t.alts.map(quote)].join(' | ')})` : own;
};

/** Longest word beginning `chunk_prefixes(tsv)` keeps (migration 0005): fewer keys to write per chunk. */
export const PREFIX_KEY_LETTERS = 4;

/**
 * The same term against `chunk_prefixes(tsv)`, where every word beginning of 3 to PREFIX_KEY_LETTERS
 * letters is a lexeme of its own: a longer stem prefix is looked up by its first letters, so the
 * index finds a superset that the tier's `rowQuery` over `tsv` narrows down.
 */
export const prefixIndexQuery = (t: Term): string => {
  const key = (stem: string) => quote([...stem].slice(0, PREFIX_KEY_LETTERS).join(''));
  const own = t.prefix === null ? quote(t.lexeme) : key(t.prefix);
  return t.alts?.length ? `(${[own, ...new Set(t.alts.map(key))].join(' | ')})` : own;
};

/**
 * A tsquery true when at least `m` of `operands` are, in factored form
 * (`a & (b | c) | b & c` for 2 of 3): short-circuit evaluation keeps the GIN consistency checks cheap.
 */
export function atLeast(operands: string[], m: number, from = 0): string | undefined {
  const rest = operands.length - from;
  if (m < 1 || rest < m) return undefined;
  if (m === 1) return operands.slice(from).join(' | ');
  if (rest === m) return operands.slice(from).join(' & ');
  const withFirst = `${operands[from]} & (${atLeast(operands, m - 1, from + 1)})`;
  const without = atLeast(operands, m, from + 1);
  return without === undefined ? withFirst : `(${withFirst}) | (${without})`;
}

/**
 * The tiers of a search, best first: the chunks holding every word (`websearch_to_tsquery`), then
 * those holding m of the chosen terms by stem prefix, for m from all of them down to the least that
 * can still be a candidate (a third of its terms, RETRIEVAL.FLOOR; the reranker then decides).
 */
export interface Tier {
  /** 'strict', or how many of the chosen terms the chunks of this tier hold. */
  level: 'strict' | number;
  /** Whether a chunk belongs to the tier, given which of the plan's terms it holds and whether every word. */
  holds(termHits: boolean[], strict: boolean): boolean;
  /** For the tiers below strict: the tsquery over `tsv` (prefix operands) and over `chunk_prefixes(tsv)`. */
  rowQuery?: string;
  indexQuery?: string;
}

export interface SearchPlan {
  terms: Term[];
  /** Indexes in `terms` of the terms the tiers are built from. */
  chosen: number[];
  tiers: Tier[];
}

export function planSearch(terms: Term[], maxTerms: number = RETRIEVAL.MAX_TERMS): SearchPlan {
  const n = terms.length;
  const chosen = terms
    .map((t, i) => ({ len: [...t.lexeme].length, i }))
    .sort((a, b) => b.len - a.len || a.i - b.i)
    .slice(0, maxTerms)
    .map((x) => x.i)
    .sort((a, b) => a - b);
  // A chunk holding a FLOOR-th of all terms holds at least this many of the chosen ones.
  const need = Math.max(1, Math.ceil(n / RETRIEVAL.FLOOR) - (n - chosen.length));
  const tiers: Tier[] = n === 0 ? [] : [{ level: 'strict', holds: (_h, strict) => strict }];
  for (let m = chosen.length; n > 0 && m >= need; m--) {
    const level = m;
    tiers.push({
      level,
      holds: (hits, strict) => !strict && chosen.filter((i) => hits[i]).length === level,
      rowQuery: atLeast(
        chosen.map((i) => termQuery(terms[i])),
        m,
      ),
      indexQuery: atLeast(
        chosen.map((i) => prefixIndexQuery(terms[i])),
        m,
      ),
    });
  }
  return { terms, chosen, tiers };
}

/** What the sample says about one language: per sampled chunk, which terms it holds and whether all words. */
export interface SampleView {
  /** Sampled chunk ids, oldest first. */
  ids: string[];
  /** Per term (same order as the plan's terms): the indexes in `ids` of the chunks holding it. */
  termHits: number[][];
  /** Indexes in `ids` of the chunks matching the strict query. */
  strictHits: number[];
  /** The sample is the whole Spark. */
  complete: boolean;
}

/** How each tier is searched: by the index, or among the sampled chunks (their ids). */
export type TierSource = { tier: Tier; from: 'index' } | { tier: Tier; from: 'sample'; ids: string[] };

/**
 * Which tiers to search, and how. A complete sample answers every tier. Otherwise the tiers are
 * searched by index, best first, down to the first one the sample shows is common (at least
 * `dense` sampled chunks): that one is taken from the sample, and no tier below it is needed.
 */
export function chooseSources(plan: SearchPlan, sample: SampleView, dense: number = RETRIEVAL.DENSE): TierSource[] {
  const strict = new Set(sample.strictHits);
  const hitSets = sample.termHits.map((h) => new Set(h));
  const byTier = plan.tiers.map(() => [] as string[]);
  sample.ids.forEach((id, row) => {
    const hits = hitSets.map((s) => s.has(row));
    const t = plan.tiers.findIndex((tier) => tier.holds(hits, strict.has(row)));
    if (t >= 0) byTier[t].push(id);
  });
  const sources: TierSource[] = [];
  for (const [t, tier] of plan.tiers.entries()) {
    if (sample.complete) {
      if (byTier[t].length > 0) sources.push({ tier, from: 'sample', ids: byTier[t] });
    } else if (byTier[t].length >= dense) {
      sources.push({ tier, from: 'sample', ids: byTier[t] });
      break;
    } else sources.push({ tier, from: 'index' });
  }
  return sources;
}

/** Whether one of the sampled chunks the sources rank holds at least a FLOOR-th of the question's terms. */
export function sampleCovers(plan: SearchPlan, sample: SampleView, sources: TierSource[]): boolean {
  const ranked = new Set(sources.flatMap((s) => (s.from === 'sample' ? s.ids : [])));
  return sample.ids.some(
    (id, row) =>
      ranked.has(id) &&
      sample.termHits.filter((hits) => hits.includes(row)).length * RETRIEVAL.FLOOR >= plan.terms.length,
  );
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
export function lexiconTerms(db: Database): Promise<Map<TextConfig, Map<string, LexiconTerm>>> {
  lexiconStems ??= (async () => {
    const all = lexiconWords();
    const result = await db.execute<{ i: number; stems: string[] }>(sql`
      SELECT (w.i - 1)::int AS i, tsvector_to_array(to_tsvector(w.cfg::regconfig, w.word)) AS stems
        FROM unnest(${sql.param(all.map((w) => w.word))}::text[], ${sql.param(all.map((w) => configFor(w.lang)))}::text[])
             WITH ORDINALITY AS w(word, cfg, i)`);
    const stemOf = new Map<number, string>();
    for (const r of result.rows) if (r.stems.length === 1) stemOf.set(Number(r.i), r.stems[0]);
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

type TermRow = { config: TextConfig | null; lexeme: string | null; prefix: string | null; hits: number[] | null };

/**
 * One round trip: the question's terms in both languages, and which of the Spark's first chunks
 * hold each of them (and every word of the question).
 */
async function readTerms(
  db: Database,
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
  // Each term's tsquery, as termQuery() writes it; parsed once, not once per sampled chunk.
  const operand = sql.raw(
    `((CASE WHEN t.prefix IS NULL THEN '''' || replace(replace(t.lexeme, '\\', '\\\\'), '''', '''''') || ''''
           ELSE '''' || replace(replace(t.prefix, '\\', '\\\\'), '''', '''''') || ''':*' END)
       || coalesce(alts.j -> t.cfg ->> t.lexeme, ''))::tsquery`,
  );
  const result = await db.execute<TermRow & { ids: string[] | null }>(sql`
    WITH sample AS MATERIALIZED (
      SELECT (row_number() OVER ())::int - 1 AS i, s.id, s.tsv
        FROM (SELECT c.id, c.tsv FROM document_chunks c WHERE c.spark_id = ${sparkId}
               ORDER BY c.id LIMIT ${sql.raw(String(RETRIEVAL.SAMPLE))}) s
    ), q AS (
      SELECT cfg, websearch_to_tsquery(cfg::regconfig, ${question}) AS strict,
             tsvector_to_array(to_tsvector(cfg::regconfig, ${question})) AS lexemes
        FROM unnest(ARRAY['spanish', 'english']) cfg
    ), p AS (
      SELECT q.cfg, u.lexeme, u.n,
             CASE WHEN length(u.lexeme) >= 3 THEN left(u.lexeme, greatest(3, length(u.lexeme) - 2)) END AS prefix
        FROM q, unnest(q.lexemes) WITH ORDINALITY AS u(lexeme, n)
    ), alts AS (SELECT ${JSON.stringify(alts)}::jsonb AS j
    ), t AS MATERIALIZED (SELECT t.*, ${operand} AS query FROM p AS t, alts)
    SELECT t.cfg AS config, t.lexeme, t.prefix,
           ARRAY(SELECT s.i FROM sample s WHERE s.tsv @@ t.query ORDER BY s.i) AS hits, NULL::uuid[] AS ids
      FROM t
    UNION ALL
    SELECT q.cfg, NULL, NULL, ARRAY(SELECT s.i FROM sample s WHERE s.tsv @@ q.strict ORDER BY s.i), NULL FROM q
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, ARRAY(SELECT s.id FROM sample s ORDER BY s.i)`);
  const ids = result.rows.find((r) => r.config === null)?.ids ?? [];
  const complete = ids.length < RETRIEVAL.SAMPLE;
  const langs = new Map<TextConfig, { terms: Term[]; sample: SampleView }>();
  for (const config of TEXT_SEARCH_CONFIGS) {
    const rows = result.rows.filter((r) => r.config === config);
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

type Row = {
  chunk_id: string;
  document_id: string;
  document_name: string;
  page: number;
  content: string;
  rank: number;
  matched: number;
  strict: boolean;
  lang: number;
  origin: 'file' | 'owner';
  config: string;
  facts: object[] | null;
};

/**
 * The statement that finds and ranks the passages of one language (`lang`: its place in the
 * search order): the tiers in order, each ranking at most CANDIDATES chunks, the first k rows kept.
 * The tiers come in one UNION ALL under a LIMIT, so PostgreSQL stops at the first tiers that give k.
 */
function languageQuery(
  sparkId: string,
  question: string,
  config: TextConfig,
  plan: SearchPlan,
  sources: TierSource[],
  k: number,
  lang: number,
): SQL {
  const loose = plan.terms.map(termQuery).join(' | ');
  const strict = sql`websearch_to_tsquery(${config}::regconfig, ${question})`;
  const cap = sql.raw(String(RETRIEVAL.CANDIDATES));
  const limit = sql.raw(String(k));
  const truncated = plan.chosen.some((i) =>
    [plan.terms[i].prefix ?? '', ...(plan.terms[i].alts ?? [])].some((x) => [...x].length > PREFIX_KEY_LETTERS),
  );
  const parts = sources.map((s) => {
    let candidates: SQL;
    if (s.from === 'sample') {
      // The sample already sorted these chunks into this tier; the oldest CANDIDATES are ranked.
      candidates = sql`SELECT c.id, c.tsv FROM document_chunks c
         WHERE c.spark_id = ${sparkId} AND c.id = ANY(${sql.param(s.ids)}::uuid[]) ORDER BY c.id LIMIT ${cap}`;
    } else if (s.tier.level === 'strict') {
      candidates = sql`SELECT c.id, c.tsv FROM document_chunks c
         WHERE c.spark_id = ${sparkId} AND c.tsv @@ ${strict} LIMIT ${cap}`;
    } else {
      // A chunk belongs to one tier only: not strict, and not holding one more of the terms.
      const above = plan.tiers.find((t) => t.level === (s.tier.level as number) + 1);
      const notAbove = above ? sql` AND NOT c.tsv @@ ${above.rowQuery}::tsquery` : sql``;
      // The index's keys stop at PREFIX_KEY_LETTERS letters: longer prefixes are checked on tsv.
      const recheck = truncated ? sql` AND c.tsv @@ ${s.tier.rowQuery}::tsquery` : sql``;
      candidates = sql`SELECT c.id, c.tsv FROM document_chunks c
         WHERE c.spark_id = ${sparkId} AND chunk_prefixes(c.tsv) @@ ${s.tier.indexQuery}::tsquery${recheck}
           AND NOT c.tsv @@ ${strict}${notAbove} LIMIT ${cap}`;
    }
    return sql`(SELECT x.id, x.tsv FROM (${candidates}) x
      ORDER BY ts_rank_cd(x.tsv, ${loose}::tsquery) DESC, x.id LIMIT ${limit})`;
  });
  return sql`SELECT h.id, ${sql.raw(String(lang))} AS lang,
         ts_rank_cd(h.tsv, ${loose}::tsquery) AS rank,
         (h.tsv @@ ${strict}) AS strict,
         (SELECT count(*) FROM unnest(${sql.param(plan.terms.map(termQuery))}::text[]) tq
           WHERE h.tsv @@ tq::tsquery)::int AS matched,
         ${loose}::tsquery AS loose
    FROM (SELECT * FROM (${sql.join(parts, sql`\nUNION ALL\n`)}) t LIMIT ${limit}) h`;
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
  db: Database,
  params: { sparkId: string; question: string; language: 'es' | 'en'; k?: number; rerank?: boolean },
): Promise<Passage[]> {
  const k = params.k ?? 4;
  // Without the reranker (the tier tests): the k best passages in PostgreSQL's order.
  const pool = params.rerank === false ? k : Math.max(k, RETRIEVAL.POOL);
  const own = configFor(params.language);
  const otherConfig: TextConfig = own === 'spanish' ? 'english' : 'spanish';
  const text = searchText(params.question);
  const langs = await readTerms(db, params.sparkId, text, await lexiconTerms(db));
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

  const covering = (lang: number) =>
    sql.raw(`SELECT 1 FROM found${lang} WHERE matched * ${RETRIEVAL.FLOOR} >= ${searches[lang].plan.terms.length}`);
  const found = searches.map(
    (s, lang) =>
      sql`${sql.raw(`found${lang}`)} AS MATERIALIZED (${languageQuery(params.sparkId, text, s.config, s.plan, s.sources, pool, lang)})`,
  );
  // The second language only when the first found nothing that covers the question.
  const chosen =
    searches.length === 1
      ? sql`SELECT * FROM found0`
      : sql`SELECT * FROM found0 WHERE EXISTS (${covering(0)})
            UNION ALL SELECT * FROM found1 WHERE NOT EXISTS (${covering(0)}) AND EXISTS (${covering(1)})
            UNION ALL SELECT * FROM found0 WHERE NOT EXISTS (${covering(0)}) AND NOT EXISTS (${covering(1)})`;
  const result = await db.execute<Row>(sql`
    WITH ${sql.join(found, sql`, `)}, h AS (${chosen})
    SELECT h.id AS chunk_id, c.document_id, d.name AS document_name, c.page, c.content,
           h.rank, h.matched, h.strict, h.lang, d.origin, c.config, c.facts
      FROM h JOIN document_chunks c ON c.id = h.id JOIN documents d ON d.id = c.document_id
     ORDER BY h.strict DESC, h.matched DESC, h.rank DESC, h.id`);
  const passages = result.rows.map((r) => {
    const { plan } = searches[Number(r.lang)];
    return {
      chunkId: r.chunk_id,
      documentId: r.document_id,
      documentName: r.document_name,
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
  const lang = Number(result.rows[0]?.lang ?? 0);
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
