/**
 * The knowledge a question is answered from (issue 29). A small Spark (up to SMALL_SPARK chunks: a few
 * dozen pages, what almost every business has) is read whole, once, and kept in this process until its
 * documents change: every question is then answered from all its rows and sentences, with no search to
 * miss one. A larger Spark is searched with PostgreSQL's full text (retrieval.ts, in bounded time), in
 * the question's language and, for a question in the other language, in words of the documents'
 * language as well; the rows that hold business facts come with it when the question asks for one.
 */
import { RANKING } from '../ranking';
import { retrieve, type Passage } from '../retrieval';
import type { ChunkRecord, KnowledgeSearch } from '../search-port';
import { asksForFacts } from './question';
import { translate } from './translate';
import { buildKnowledge, type Knowledge } from './units';
import { questionLanguage, type Lang } from './words';

/** A Spark with at most this many chunks is read whole and kept in memory. */
const SMALL_SPARK = 150;
/** Small Sparks kept per process (least recently used first out). */
const CACHED_SPARKS = 200;

const langOf = (config: string): Lang => (config === 'spanish' ? 'es' : 'en');

/** Rows holding business facts a large Spark's answer reads at most (the first ones, in reading order). */
const FACT_CHUNKS = 60;

function toPassage(r: ChunkRecord): Passage {
  return {
    chunkId: r.id,
    documentId: r.documentId,
    documentName: r.documentName,
    page: Number(r.page),
    content: r.content,
    excerpt: '',
    rank: 0,
    matched: 0,
    terms: 0,
    strict: false,
    score: 0,
    coverage: 0,
    best: '',
    origin: r.origin,
    config: r.config === 'spanish' ? 'spanish' : 'english',
    ...(r.facts ? { facts: r.facts } : {}),
  };
}

function knowledgeOf(rows: ChunkRecord[]): Knowledge {
  return buildKnowledge(
    rows.map(toPassage),
    rows.map((r) => langOf(r.config)),
    rows.map((r) => r.facts ?? undefined),
  );
}

const cache = new Map<string, { signature: string; knowledge: Knowledge }>();

export class KnowledgeLoader {
  constructor(private readonly search: KnowledgeSearch) {}

  /** The knowledge to answer `question` from, for a Spark in `language`. */
  async load(sparkId: string, question: string, language: Lang): Promise<Knowledge> {
    // One index-only look: how many chunks, which ones, and when its documents last changed.
    const { count: n, signature } = await this.search.chunkSignature(sparkId, SMALL_SPARK + 1);
    if (n <= SMALL_SPARK) {
      const kept = cache.get(sparkId);
      if (kept && kept.signature === signature) {
        cache.delete(sparkId);
        cache.set(sparkId, kept);
        return kept.knowledge;
      }
      const rows = await this.search.sparkChunks(sparkId);
      const knowledge = knowledgeOf(rows);
      cache.set(sparkId, { signature: signature ?? '', knowledge });
      while (cache.size > CACHED_SPARKS) cache.delete(cache.keys().next().value!);
      return knowledge;
    }
    return this.searchLarge(sparkId, question, language);
  }

  /**
   * A large Spark: the passages full-text search finds (in the document's words too, for a question in the
   * other language that found nothing), and, for a question that asks for a business fact, the rows that
   * hold facts.
   */
  private async searchLarge(sparkId: string, question: string, language: Lang): Promise<Knowledge> {
    const asked = questionLanguage(question, language);
    const found = await retrieve(this.search, { sparkId, question, language, k: 12 });
    if (asked !== language && !found.some((p) => p.coverage >= RANKING.MIN_COVERAGE)) {
      const translated = translate(question, asked, language);
      if (translated) found.push(...(await retrieve(this.search, { sparkId, question: translated, language, k: 12 })));
    }
    const passages = new Map(found.map((p) => [p.chunkId, p]));
    if (asksForFacts(question, asked)) {
      const rows = await this.search.factChunks(sparkId, FACT_CHUNKS);
      for (const r of rows) if (!passages.has(r.id)) passages.set(r.id, toPassage(r));
    }
    const all = [...passages.values()];
    return buildKnowledge(
      all,
      all.map((p) => (p.config === 'spanish' ? 'es' : 'en')),
      all.map((p) => p.facts),
    );
  }
}
