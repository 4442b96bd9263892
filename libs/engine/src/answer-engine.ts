import { t } from '@sparks/core';
import { answerFromKnowledge, type KnowledgeAnswer } from './answers/answer';
import { KnowledgeLoader } from './answers/load';
import { citeLabel, smallTalk } from './composer';
import { LlmProvider, type LlmSettings, type LlmTurn } from './llm';
import { ownerAnswer, type Passage } from './retrieval';
import type { KnowledgeSearch } from './search-port';
import type { Lang } from './texts';

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

/** The passages a language model is sent at most. */
export const MODEL_PASSAGES = 5;

/**
 * What a Spark says to its own users: the knowledge of its documents (answers/load.ts), then the offline
 * answer (answers/answer.ts) or the configured LLM given the passages that hold the best answers.
 */
export class AnswerEngine {
  private readonly llm?: LlmProvider;
  private readonly loader: KnowledgeLoader;

  constructor(
    private readonly search: KnowledgeSearch,
    llm?: LlmSettings | LlmProvider,
    /** Told when the model failed and the offline answer was given instead (the worker logs it). */
    private readonly onFallback?: (err: unknown) => void,
  ) {
    if (llm) this.llm = llm instanceof LlmProvider ? llm : new LlmProvider(llm);
    this.loader = new KnowledgeLoader(search);
  }

  get mode(): 'offline' | 'llm' {
    return this.llm ? 'llm' : 'offline';
  }

  private async offline(input: Pick<AnswerInput, 'sparkId' | 'language' | 'initialMessage' | 'question' | 'audience'>) {
    const knowledge = smallTalk(input.question)
      ? { passages: [], units: [] }
      : await this.loader.load(input.sparkId, input.question, input.language);
    return answerFromKnowledge({
      question: input.question,
      language: input.language,
      initialMessage: input.initialMessage,
      knowledge,
      hasDocuments: knowledge.units.length > 0 || (await this.search.hasChunks(input.sparkId)),
      audience: input.audience,
    });
  }

  /**
   * The passages a language model would be sent for a question (the benchmark's recall@5): those of the
   * offline answer's units first, then those of the best-scoring units; none for a question the
   * documents do not cover.
   */
  async modelPassages(sparkId: string, language: Lang, question: string): Promise<Passage[]> {
    const offline = await this.offline({ sparkId, language, question, initialMessage: '' });
    return offline.kind === 'answer' ? passagesFor(offline) : [];
  }

  async answer(input: AnswerInput): Promise<Answer> {
    const offline = await this.offline(input);
    // Small talk and questions the documents do not cover never go to the model: nothing to ground it.
    if (!this.llm || offline.kind !== 'answer') {
      await input.onToken(offline.text);
      return { kind: offline.kind, text: offline.text, sources: offline.sources, engine: 'offline' };
    }
    // The model sees the passages of the best answers (at most five), numbered; its [n] become sources.
    // An owner's answer goes as its answer alone: its question is the passage's label.
    const relevant = passagesFor(offline).map((p) =>
      p.origin === 'owner' ? { ...p, content: ownerAnswer(p.content) } : p,
    );
    let streamed = false;
    try {
      const reply = await this.llm.answer({
        sysPrompt: input.sysPrompt,
        language: offline.lang,
        passages: relevant,
        history: input.history.slice(-10),
        question: input.question,
        onToken: (text) => {
          streamed = true;
          return input.onToken(text);
        },
      });
      if (reply.notCovered) {
        const text = t(offline.lang, 'engine.notCovered');
        await input.onToken(text);
        return { kind: 'notCovered', text, sources: [], engine: 'llm' };
      }
      // Cited passages are the sources; a reply that cites none still came from all it was given.
      const used = (reply.cited.length ? reply.cited : relevant.map((_, i) => i + 1)).map((n) => ({
        n,
        p: relevant[n - 1],
      }));
      const footer = `\n\n— *${used
        .map(({ n, p }) => `[${n}] ${citeLabel(p, offline.lang, input.audience)}`)
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
      return { kind: offline.kind, text: offline.text, sources: offline.sources, engine: 'offline' };
    }
  }
}

/**
 * The passages of an offline answer, for a model: the passages of the units it quotes, then those of the
 * best-scoring units, each once, at most MODEL_PASSAGES.
 */
function passagesFor(answer: KnowledgeAnswer): Passage[] {
  const order: number[] = [];
  for (const u of answer.units) if (!order.includes(u.passage)) order.push(u.passage);
  for (const s of answer.scores) {
    if (order.length >= MODEL_PASSAGES || s.score <= 0) break;
    if (!order.includes(s.unit.passage)) order.push(s.unit.passage);
  }
  return order.slice(0, MODEL_PASSAGES).map((i) => answer.passages[i]);
}
