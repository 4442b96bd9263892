import { useSyncExternalStore } from 'react';

import { secureCookies } from '../../lib/cookies';
import { readItem, removeItem, writeItem } from '../auth/tokens';

/** docs/product.md §3: the active Spark is kept in localStorage and in a cookie, both named `activeSparkId`. */
export const ACTIVE_SPARK_KEY = 'activeSparkId';
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function readCookie(name: string): string | null {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : null;
}

/** Exported for its test: the cookie as written, `secure` when the app is served over https. */
export function cookieString(name: string, value: string, maxAge: number, secure = secureCookies()): string {
  return `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAge}; samesite=lax${secure ? '; secure' : ''}`;
}

function writeCookie(name: string, value: string, maxAge: number) {
  document.cookie = cookieString(name, value, maxAge);
}

/** The active Spark id: localStorage first, the cookie when storage is blocked or was cleared. */
export function readActiveSparkId(): string | null {
  return readItem(ACTIVE_SPARK_KEY) || readCookie(ACTIVE_SPARK_KEY) || null;
}

/** Set when a Spark page opens. */
export function setActiveSparkId(sparkId: string): void {
  if (readItem(ACTIVE_SPARK_KEY) === sparkId && readCookie(ACTIVE_SPARK_KEY) === sparkId) return;
  writeItem(ACTIVE_SPARK_KEY, sparkId);
  writeCookie(ACTIVE_SPARK_KEY, sparkId, COOKIE_MAX_AGE_SECONDS);
  notify();
}

/** Cleared by the chat's close button and when the active Spark is deleted. */
export function clearActiveSparkId(): void {
  removeItem(ACTIVE_SPARK_KEY);
  writeCookie(ACTIVE_SPARK_KEY, '', 0);
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab opening or closing a Spark.
  const onStorage = (event: StorageEvent) => {
    if (event.key === ACTIVE_SPARK_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useActiveSparkId(): string | null {
  return useSyncExternalStore(subscribe, readActiveSparkId, () => null);
}
