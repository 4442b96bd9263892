import type { Database } from '@sparks/db';
import { sql } from 'drizzle-orm';
import { composeOffline, covers, smallTalk } from './composer';
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
  onToken: (text: string) => void | Promise<void>;
}

export interface Answer {
  text: string;
  kind: 'greeting' | 'answer' | 'notCovered' | 'error';
  sources: Array<{ documentId: string; document: string; page: number }>;
  engine: 'offline' | 'llm';
}

/** What a Spark says to its own users: retrieval, then the offline composer or the configured LLM. */
export class AnswerEngine {
  private readonly llm?: LlmProvider;

  constructor(
    private readonly db: Database,
    llm?: LlmSettings,
  ) {
    if (llm) this.llm = new LlmProvider(llm);
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
    });
    // Small talk and questions the documents do not cover never go to the model: nothing to ground it.
    if (!this.llm || offline.kind !== 'answer') {
      await input.onToken(offline.text);
      return { ...offline, engine: 'offline' };
    }
    const relevant = passages.filter(covers);
    try {
      const text = await this.llm.answer({
        sysPrompt: input.sysPrompt,
        language: input.language,
        passages: relevant,
        history: input.history.slice(-10),
        question: input.question,
        onToken: input.onToken,
      });
      return { kind: 'answer', text, sources: offline.sources, engine: 'llm' };
    } catch {
      return { kind: 'error', text: t(input.language, 'llmFailed'), sources: [], engine: 'llm' };
    }
  }
}
