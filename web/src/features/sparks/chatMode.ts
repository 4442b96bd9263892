import { useSyncExternalStore } from 'react';

/**
 * docs/product.md §4 chat mode (also the chat theme): opening a system page sets Menu, opening a Spark sets Normal,
 * opening a test sets Test; the Spark chat's close button returns to Normal.
 */
export type ChatMode = 'Normal' | 'Test' | 'Menu';

let mode: ChatMode = 'Normal';
const listeners = new Set<() => void>();

export function getChatMode(): ChatMode {
  return mode;
}

export function setChatMode(next: ChatMode): void {
  if (next === mode) return;
  mode = next;
  listeners.forEach((listener) => listener());
}

export function useChatMode(): ChatMode {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getChatMode,
    getChatMode,
  );
}

/**
 * The pages of the system assistants reached from the menu (and the profile): settings, billing, deploy,
 * profile, new-spark and the tutorials. The main chat `/` is not one of them: it keeps the current mode, so the
 * close button's Normal survives the trip home.
 */
const SYSTEM_PAGE = /^\/(settings|billing|deploy|profile|new-spark|onboarding|onBoarding|spark\/onboarding)\/?$/;
const TEST_PAGE = /^\/(spark\/[^/]+\/test\/[^/]+|mobile-test\/[^/]+\/[^/]+)\/?$/;
const SPARK_PAGE = /^\/spark\/[^/]+\/?$/;

export function isSystemPage(pathname: string): boolean {
  return SYSTEM_PAGE.test(pathname);
}

/** The mode a page sets when it opens, or null when it leaves the mode alone. */
export function chatModeForPath(pathname: string): ChatMode | null {
  if (isSystemPage(pathname)) return 'Menu';
  if (TEST_PAGE.test(pathname)) return 'Test';
  if (SPARK_PAGE.test(pathname)) return 'Normal';
  return null;
}
