import {
  readBusiness,
  type BusinessFacts,
  type Lang,
  type ModelPort,
  type ModelReading,
  type SparkInfo,
} from '@sparks/engine';
import type { PortDeps } from './scope';

/** The language model for the flows when one is configured and answers; the rules (or the template) otherwise. */
export class ModelPortImpl implements ModelPort {
  constructor(private readonly deps: Pick<PortDeps, 'llm' | 'onLlmError'>) {}

  async readBusiness(text: string, language: Lang): Promise<BusinessFacts> {
    if (this.deps.llm) {
      try {
        return await this.deps.llm.readBusiness(text, language);
      } catch (err) {
        this.deps.onLlmError?.(err);
      }
    }
    return readBusiness(text, language);
  }

  /** The model's part of the Spark's instructions; undefined without a model or when it fails (the template writes them). */
  async writeInstructions(spark: SparkInfo): Promise<string | undefined> {
    if (!this.deps.llm) return undefined;
    try {
      return await this.deps.llm.writeInstructions(spark);
    } catch (err) {
      this.deps.onLlmError?.(err);
      return undefined;
    }
  }

  /** The model's reading of a reply the rules were not sure of; undefined without a model or when it fails. */
  async readReply(input: {
    instructions: string;
    step: Record<string, unknown>;
    reply: string;
  }): Promise<ModelReading | undefined> {
    if (!this.deps.llm) return undefined;
    try {
      return await this.deps.llm.readReply(input);
    } catch (err) {
      this.deps.onLlmError?.(err);
      return undefined;
    }
  }
}
