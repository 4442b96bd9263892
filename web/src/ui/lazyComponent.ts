import { useSyncExternalStore, type ComponentType } from 'react';

export interface LazyComponent<P> {
  /** Starts the download (once; again after a failure) and answers the component. */
  load(): Promise<ComponentType<P>>;
  /** The component once loaded, else null; re-renders the caller when it arrives. */
  useLoaded(): ComponentType<P> | null;
}

/**
 * A component kept out of the page's first download (`importer` is a dynamic import answering it) and fetched on
 * demand — when it is about to be needed
 * (a pointer over a menu button, an idle moment) or when it is. Unlike React.lazy there is no Suspense and a
 * failed download (offline, a new release) is tried again the next time instead of staying failed.
 */
export function lazyComponent<P>(importer: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  return {
    load() {
      loading ??= importer().then(
        (component) => {
          loaded = component;
          listeners.forEach((listener) => listener());
          return component;
        },
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    useLoaded() {
      return useSyncExternalStore(
        subscribe,
        () => loaded,
        () => null,
      );
    },
  };
}

/** Runs `task` when the browser is idle (soon after, where it cannot tell); answers a cancel function. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(task, 200);
  return () => clearTimeout(timer);
}
