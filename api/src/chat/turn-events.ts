/**
 * A one-consumer queue of events as an async iterable: `push` before or while the consumer reads,
 * `end` to finish it (what was pushed is still read). Breaking out of the loop calls `onReturn`.
 */
export class TurnEvents<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(private readonly onReturn: () => void = () => undefined) {}

  push(event: T): void {
    if (this.ended) return;
    this.buffer.push(event);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    try {
      for (;;) {
        const next = this.buffer.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      if (!this.ended) {
        this.ended = true;
        this.onReturn();
      }
    }
  }
}
