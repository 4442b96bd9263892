/** What the widget keeps per Spark in the host page's storage. */
export interface Stored {
  v?: string;
  c?: string;
  /** The question sent whose answer this browser has not shown yet (a page reloaded mid-answer resumes it). */
  q?: string;
}

/**
 * The visitor's token and conversation in localStorage (in memory when the page blocks storage); `onWrite` hears
 * every change.
 */
export function storage(key: string, onWrite: (value: Stored) => void = () => undefined) {
  let memory: Stored = {};
  return {
    read(): Stored {
      try {
        return JSON.parse(localStorage.getItem(key) ?? '{}') as Stored;
      } catch {
        return memory;
      }
    },
    write(value: Stored) {
      memory = value;
      onWrite(value);
      try {
        localStorage.setItem(key, JSON.stringify(value));
      } catch {
        // Storage blocked (private mode, a strict page): this tab keeps it in memory.
      }
    },
  };
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  return node;
}

/** A refused request of the widget's API: its status, and how long to wait (Retry-After, seconds; 0 when unsaid). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: number,
    /** The api's error code (`DEPLOYMENT_DAILY_LIMIT`…), when its answer said one. */
    readonly code = '',
  ) {
    super(`HTTP ${status}`);
  }
}
