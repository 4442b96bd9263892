import type { TextSearchConfig } from '@sparks/contracts';

/**
 * What the answer engine and the help articles ask of the database (`SearchRepository` of `@sparks/db`
 * implements it; the worker provides it as `KNOWLEDGE_SEARCH`). Queries only: which chunks, which lexemes;
 * how they are ranked and which answer is given stays in the engine (retrieval.ts, ranking.ts, answers/).
 */
export interface KnowledgeSearch {
  /** The lexemes PostgreSQL reads in each text with its configuration (`to_tsvector`), in the texts' order. */
  lexemes(texts: readonly string[], configs: readonly TextSearchConfig[]): Promise<string[][]>;
  /** Whether the Spark has at least one chunk (one index probe). */
  hasChunks(sparkId: string): Promise<boolean>;
  /**
   * How many of the Spark's chunks there are, counted up to `upTo` (its first ones by id), and a signature of
   * them and of when its documents last changed (null without chunks).
   */
  chunkSignature(sparkId: string, upTo: number): Promise<{ count: number; signature: string | null }>;
  /** Every chunk of the Spark, with its document, by id. */
  sparkChunks(sparkId: string): Promise<ChunkRecord[]>;
  /** The Spark's first `limit` chunks (by id) that hold business facts, with their document. */
  factChunks(sparkId: string, limit: number): Promise<ChunkRecord[]>;
  /** The question's terms in each configuration, and which of the Spark's first chunks hold them: see `TermSample`. */
  sampleTerms(query: TermSample): Promise<SampledTerm[]>;
  /** The passages of a search (the tiers of each language, in order): see `PassageSearch`. */
  findPassages(query: PassageSearch): Promise<FoundPassage[]>;
}

/** A chunk of a Spark with its document, as the answer engine reads it. */
export interface ChunkRecord {
  id: string;
  documentId: string;
  documentName: string;
  page: number;
  content: string;
  /** The text-search configuration it was indexed with. */
  config: string;
  facts: object[] | null;
  origin: 'file' | 'owner';
}

/**
 * One round trip: the question's lexemes in both configurations (with the stem prefix PostgreSQL cuts: the
 * lexeme less its last two letters, at least three, none under three letters), and, for each and for the whole
 * question (`websearch_to_tsquery`), which of the Spark's first `sampleSize` chunks (by id) hold it.
 */
export interface TermSample {
  sparkId: string;
  question: string;
  sampleSize: number;
  /** Per configuration and lexeme: tsquery text OR-ed to the term's own operand (` | 'alt'`…). */
  alts: Record<string, Record<string, string>>;
}

/**
 * A row of `sampleTerms`: a term (`config` and `lexeme`), the whole question in a configuration (`lexeme`
 * null), or the sample's ids oldest first (`config` null, `ids`). `hits`: indexes in the sample.
 */
export type SampledTerm = {
  config: TextSearchConfig | null;
  lexeme: string | null;
  prefix: string | null;
  hits: number[] | null;
  ids: string[] | null;
};

/** How the candidates of one tier are found: among sampled chunks, every word, or by the prefix index. */
export type TierCandidates =
  | { from: 'sample'; ids: string[] }
  | { from: 'strict' }
  | {
      from: 'index';
      /** The tsquery over `chunk_prefixes(tsv)`. */
      indexQuery: string;
      /** A tsquery the chunk's `tsv` must also match (the index's keys are shorter than the prefixes). */
      recheck?: string;
      /** A tsquery the chunk's `tsv` must not match (the tier above). */
      notAbove?: string;
    };

/** The search of one language: its configuration, its tsqueries and its tiers, best first. */
export interface LanguageSearch {
  config: TextSearchConfig;
  /** Any of the terms: what `ts_rank_cd` ranks by. */
  loose: string;
  /** Each term's tsquery: `matched` counts those a chunk holds. */
  termQueries: string[];
  tiers: TierCandidates[];
}

/**
 * One statement: per language, its tiers in order, each ranking at most `candidates` chunks, the first `limit`
 * rows kept; the second language's rows only when the first holds none with `matched × floor ≥ terms`.
 */
export interface PassageSearch {
  sparkId: string;
  question: string;
  limit: number;
  candidates: number;
  floor: number;
  languages: LanguageSearch[];
}

/** A passage found: its chunk and document, its rank, how many terms it holds, and its language's place. */
export interface FoundPassage {
  chunkId: string;
  documentId: string;
  documentName: string;
  page: number;
  content: string;
  rank: number;
  matched: number;
  strict: boolean;
  /** Index in `PassageSearch.languages`. */
  lang: number;
  origin: 'file' | 'owner';
  config: string;
  facts: object[] | null;
}
