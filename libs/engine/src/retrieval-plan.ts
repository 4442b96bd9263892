/**
 * The plan of a full-text search (docs/decisions.md, "Retrieval in bounded time"), pure: the question's terms
 * as tsqueries, the tiers the search goes through, which of them the sample of a Spark's chunks answers, and
 * what the search port (search-port.ts) is asked for. retrieval.ts runs it.
 */
import type { TextSearchConfig } from '@sparks/contracts';
import type { LanguageSearch, TierCandidates } from './search-port';

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
export const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

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

/**
 * What the search of one language asks the database for: its tsqueries, and how each tier's candidates are
 * found (among the sampled chunks, by every word, or by the prefix index narrowed down on `tsv`).
 */
export function languageSearch(config: TextSearchConfig, plan: SearchPlan, sources: TierSource[]): LanguageSearch {
  const truncated = plan.chosen.some((i) =>
    [plan.terms[i].prefix ?? '', ...(plan.terms[i].alts ?? [])].some((x) => [...x].length > PREFIX_KEY_LETTERS),
  );
  const tiers = sources.map((s): TierCandidates => {
    if (s.from === 'sample') return { from: 'sample', ids: s.ids };
    if (s.tier.level === 'strict') return { from: 'strict' };
    // A chunk belongs to one tier only: not strict, and not holding one more of the terms.
    const above = plan.tiers.find((t) => t.level === (s.tier.level as number) + 1);
    return {
      from: 'index',
      indexQuery: s.tier.indexQuery!,
      // The index's keys stop at PREFIX_KEY_LETTERS letters: longer prefixes are checked on tsv.
      ...(truncated ? { recheck: s.tier.rowQuery! } : {}),
      ...(above ? { notAbove: above.rowQuery! } : {}),
    };
  });
  return { config, loose: plan.terms.map(termQuery).join(' | '), termQueries: plan.terms.map(termQuery), tiers };
}
