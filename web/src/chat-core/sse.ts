import type { ChatStreamEvent } from '@sparks/contracts';

import { isRecord } from './json';

/**
 * An incremental reader of `text/event-stream` text: feed it the chunks as they arrive and it answers
 * the `data:` payloads of every complete event (lines joined by '\n'); comments (`: keep-alive`) and
 * other fields are ignored. Handles \n, \r\n and \r line ends and events split across chunks.
 */
export class EventStreamParser {
  private buffer = '';

  push(chunk: string): string[] {
    this.buffer += chunk;
    const payloads: string[] = [];
    for (;;) {
      const match = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer);
      if (!match) break;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const data = dataOf(block);
      if (data !== null) payloads.push(data);
    }
    return payloads;
  }

  /** What is left when the stream ends: a last event without its blank line. */
  flush(): string[] {
    const block = this.buffer;
    this.buffer = '';
    const data = dataOf(block);
    return data === null ? [] : [data];
  }
}

function dataOf(block: string): string | null {
  const lines = block
    .split(/\r\n|\n|\r/)
    .filter((line) => line === 'data' || line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  return lines.length > 0 ? lines.join('\n') : null;
}

/** Answers each JSON payload to `onEvent`; a payload that is not JSON is skipped. */
function emitPayloads(payloads: string[], onEvent: (event: unknown) => void): void {
  for (const payload of payloads) {
    if (!payload) continue;
    try {
      onEvent(JSON.parse(payload));
    } catch (error) {
      if (error instanceof SyntaxError) continue; // a line that is not JSON: nothing we can show
      throw error;
    }
  }
}

/** Reads a fetch body as text chunks and answers each JSON payload to `onEvent`. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: unknown) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new EventStreamParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      emitPayloads(parser.push(decoder.decode(value, { stream: true })), onEvent);
    }
    emitPayloads(parser.push(decoder.decode()), onEvent);
    emitPayloads(parser.flush(), onEvent);
  } finally {
    reader.releaseLock();
  }
}

/**
 * The same for a stream answered whole (a browser without readable response bodies, the widget's fallback): every
 * JSON payload of the text, the last one even without its blank line.
 */
export function readEventText(text: string, onEvent: (event: unknown) => void): void {
  const parser = new EventStreamParser();
  emitPayloads([...parser.push(text), ...parser.flush()], onEvent);
}

/** An event of a chat's stream (the app's and the widget's): a JSON object with its `type`. */
export function isStreamEvent(value: unknown): value is ChatStreamEvent {
  return isRecord(value) && typeof value.type === 'string';
}
