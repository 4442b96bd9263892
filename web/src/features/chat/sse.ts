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

/** Reads a fetch body as text chunks and answers each JSON payload to `onEvent`. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: unknown) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new EventStreamParser();
  const emit = (payloads: string[]) => {
    for (const payload of payloads) {
      if (!payload) continue;
      try {
        onEvent(JSON.parse(payload));
      } catch (error) {
        if (error instanceof SyntaxError) continue; // a line that is not JSON: nothing we can show
        throw error;
      }
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      emit(parser.push(decoder.decode(value, { stream: true })));
    }
    emit(parser.push(decoder.decode()));
    emit(parser.flush());
  } finally {
    reader.releaseLock();
  }
}
