import OpenAI from 'openai';
import type { Passage } from './retrieval';
import { t, type Lang } from './texts';

export interface LlmSettings {
  baseURL?: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export interface LlmTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** Any OpenAI-compatible chat-completions endpoint, streamed through the official client. */
export class LlmProvider {
  private readonly client: OpenAI;

  constructor(private readonly settings: LlmSettings) {
    this.client = new OpenAI({
      baseURL: settings.baseURL,
      apiKey: settings.apiKey ?? 'not-needed',
      timeout: settings.timeoutMs,
      maxRetries: 1,
    });
  }

  /** Streams the answer token by token; resolves with the whole text. Throws on provider errors. */
  async answer(input: {
    sysPrompt: string;
    language: Lang;
    passages: Passage[];
    history: LlmTurn[];
    question: string;
    onToken: (text: string) => void | Promise<void>;
  }): Promise<string> {
    const sources = input.passages
      .map((p, i) => `[${i + 1}] (${p.documentName}, ${p.page})\n${p.content}`)
      .join('\n\n');
    const system = `${input.sysPrompt}\n\n${t(input.language, 'llmInstructions', {
      language: t(input.language, 'languageName'),
    })}\n\n${sources}`;
    const stream = await this.client.chat.completions.create({
      model: this.settings.model,
      stream: true,
      messages: [{ role: 'system', content: system }, ...input.history, { role: 'user', content: input.question }],
    });
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content ?? '';
      if (delta) {
        text += delta;
        await input.onToken(delta);
      }
    }
    if (!text.trim()) throw new Error('empty completion');
    return text;
  }
}
