/** Types of openai-server.js (a CommonJS module so that the .mjs benchmarks can load it too). */

export type Mode =
  | { kind: 'grounded' }
  | { kind: 'reply'; content?: string; tokens?: string[] }
  | { kind: 'error'; status: number }
  | { kind: 'hang' };

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  [key: string]: unknown;
}

export interface OpenAiServer {
  /** The base URL to give the client: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request body received, in order. */
  requests: ChatRequest[];
  setMode(mode: Mode): void;
  /** Milliseconds before each streamed chunk (and before a whole answer). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export function startOpenAiServer(options?: {
  mode?: Mode;
  delayMs?: number;
  /** Milliseconds once per completion, before anything is sent (a model's time to its first token). */
  latencyMs?: number;
  port?: number;
  /** The reply of `grounded` when no passage shares a word with the question. */
  none?: string;
}): Promise<OpenAiServer>;

/** What `grounded` writes when asked for a Spark's instructions: one paragraph from the facts it was sent. */
export function instructionsOf(facts: {
  name: string;
  tone: string;
  language: string;
  business?: string;
  description?: string;
  goal?: string;
  hours?: string;
}): string;
