import type { Database } from '@sparks/db';
import { sql } from 'drizzle-orm';
import { citeLabel, composeOffline, covers, smallTalk } from './composer';
import { LlmProvider, type LlmSettings, type LlmTurn } from './llm';
import { retrieve } from './retrieval';
import { t, type Lang } from './texts';

export interface AnswerInput {
  sparkId: string;
  language: Lang;
  initialMessage: string;
  sysPrompt: string;
  question: string;
  history: LlmTurn[];
  /** Who asks: the owner testing their Spark, or a visitor of the widget (how the owner's own answers are cited). */
  audience?: 'owner' | 'visitor';
  onToken: (text: string) => void | Promise<void>;
}

export interface Answer {
  text: string;
  kind: 'greeting' | 'answer' | 'notCovered' | 'error';
  sources: Array<{ documentId: string; document: string; page: number; addedBy?: 'owner' }>;
  engine: 'offline' | 'llm';
}

/** What a Spark says to its own users: retrieval, then the offline composer or the configured LLM. */
export class AnswerEngine {
  private readonly llm?: LlmProvider;

  constructor(
    private readonly db: Database,
    llm?: LlmSettings | LlmProvider,
    /** Told when the model failed and the offline answer was given instead (the worker logs it). */
    private readonly onFallback?: (err: unknown) => void,
  ) {
    if (llm) this.llm = llm instanceof LlmProvider ? llm : new LlmProvider(llm);
  }

  get mode(): 'offline' | 'llm' {
    return this.llm ? 'llm' : 'offline';
  }

  private async hasDocuments(sparkId: string): Promise<boolean> {
    // One index probe, not a count of every chunk of the Spark.
    const r = await this.db.execute<{ found: boolean }>(
      sql`SELECT EXISTS (SELECT 1 FROM document_chunks WHERE spark_id = ${sparkId}) AS found`,
    );
    return r.rows[0]?.found === true;
  }

  async answer(input: AnswerInput): Promise<Answer> {
    const passages = smallTalk(input.question)
      ? []
      : await retrieve(this.db, { sparkId: input.sparkId, question: input.question, language: input.language });
    const offline = composeOffline({
      question: input.question,
      language: input.language,
      initialMessage: input.initialMessage,
      passages,
      hasDocuments: passages.length > 0 || (await this.hasDocuments(input.sparkId)),
      audience: input.audience,
    });
    // Small talk and questions the documents do not cover never go to the model: nothing to ground it.
    if (!this.llm || offline.kind !== 'answer') {
      await input.onToken(offline.text);
      return { ...offline, engine: 'offline' };
    }
    // The model sees the passages that cover the question (at most five), numbered; its [n] become sources.
    // An owner's answer goes as its answer alone: its question is the passage's label (the document name).
    const relevant = passages
      .filter(covers)
      .slice(0, 5)
      .map((p) => (p.origin === 'owner' ? { ...p, content: p.best } : p));
    let streamed = false;
    try {
      const reply = await this.llm.answer({
        sysPrompt: input.sysPrompt,
        language: input.language,
        passages: relevant,
        history: input.history.slice(-10),
        question: input.question,
        onToken: (text) => {
          streamed = true;
          return input.onToken(text);
        },
      });
      if (reply.notCovered) {
        const text = t(input.language, 'notCovered');
        await input.onToken(text);
        return { kind: 'notCovered', text, sources: [], engine: 'llm' };
      }
      // Cited passages are the sources; a reply that cites none still came from all it was given.
      const used = (reply.cited.length ? reply.cited : relevant.map((_, i) => i + 1)).map((n) => ({
        n,
        p: relevant[n - 1],
      }));
      const footer = `\n\n— *${used
        .map(({ n, p }) => `[${n}] ${citeLabel(p, input.language, input.audience)}`)
        .join('; ')}*`;
      await input.onToken(footer);
      return {
        kind: 'answer',
        text: `${reply.text}${footer}`,
        sources: used.map(({ p }) => ({
          documentId: p.documentId,
          document: p.documentName,
          page: p.page,
          ...(p.origin === 'owner' ? { addedBy: 'owner' as const } : {}),
        })),
        engine: 'llm',
      };
    } catch (err) {
      // A model that fails or is too slow leaves the extractive answer (the stored reply replaces any
      // tokens already streamed).
      this.onFallback?.(err);
      if (!streamed) await input.onToken(offline.text);
      return { ...offline, engine: 'offline' };
    }
  }
}
