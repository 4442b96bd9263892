import axios, {
  type AxiosAdapter,
  type AxiosInstance,
  type AxiosRequestConfig,
  type InternalAxiosRequestConfig,
} from 'axios';
import i18next from 'i18next';

import { clearSession, readAccessToken, readRefreshToken, storeTokens, type TokenPair } from '../features/auth/tokens';
import { toLanguage } from '../i18n';

/** One entry of the server's error list (spec §7): `message` is already in the caller's language. */
export interface ApiErrorItem {
  code: string;
  message: string;
  field?: string;
}

/** Codes the client makes up for failures that have no server error list. */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  timeout: 'TIMEOUT',
  http: 'HTTP_ERROR',
  noRefreshToken: 'NO_REFRESH_TOKEN',
} as const;

export const NO_REFRESH_TOKEN_MESSAGE = 'No refresh token available';

/** A failed call: the HTTP status (none for network failures), the error list and their messages joined. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number | undefined,
    readonly errors: ApiErrorItem[],
  ) {
    super(errors.map((error) => error.message).join(', '));
  }

  /** The first error's code. */
  get code(): string | undefined {
    return this.errors[0]?.code;
  }

  hasCode(code: string): boolean {
    return this.errors.some((error) => error.code === code);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function toErrorItem(raw: unknown): ApiErrorItem {
  if (typeof raw === 'string') return { code: CLIENT_ERROR_CODES.http, message: raw };
  const item = isRecord(raw) ? raw : {};
  const code = typeof item.code === 'string' ? item.code : CLIENT_ERROR_CODES.http;
  return {
    code,
    message: typeof item.message === 'string' ? item.message : code,
    ...(typeof item.field === 'string' ? { field: item.field } : {}),
  };
}

/**
 * Spec §7 response unwrapping: an `errors` array raises an {@link ApiError} (messages joined by ', '),
 * else `data` is the answer, else the whole body.
 */
export function unwrapBody<T>(body: unknown, status?: number): T {
  if (isRecord(body) && Array.isArray(body.errors)) {
    const statusCode = typeof body.statusCode === 'number' ? body.statusCode : status;
    throw new ApiError(statusCode, body.errors.map(toErrorItem));
  }
  if (isRecord(body) && 'data' in body) return body.data as T;
  return body as T;
}

/** An axios failure as an {@link ApiError}: the server's list when it sent one, else a client-side code. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (axios.isAxiosError(error)) {
    const status = error.response?.status;
    if (error.response) {
      try {
        unwrapBody(error.response.data, status);
      } catch (apiError) {
        if (apiError instanceof ApiError) return apiError;
      }
      return new ApiError(status, [{ code: CLIENT_ERROR_CODES.http, message: error.message }]);
    }
    const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
    return new ApiError(undefined, [
      { code: timedOut ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.network, message: error.message },
    ]);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(undefined, [{ code: CLIENT_ERROR_CODES.network, message }]);
}

/** Calls under /auth and /users (sign-in, refresh, password reset) never trigger a token refresh. */
export function isAuthEndpoint(url: string | undefined): boolean {
  return /^\/?(auth|users)(\/|$)/.test(url ?? '');
}

interface RetryableConfig extends InternalAxiosRequestConfig {
  _retried?: boolean;
}

export interface ApiClientOptions {
  /** The transport (tests pass a fake one); defaults to the browser's XHR/fetch adapter. */
  adapter?: AxiosAdapter;
  /** Where the browser goes when the session cannot be refreshed; defaults to `location.replace`. */
  redirect?: (path: string) => void;
  /** The language sent as Accept-Language; defaults to the active UI language. */
  language?: () => string;
  /** Failed requests are logged with method and path (spec §8); defaults to console.error. */
  log?: (line: string) => void;
  /** The transport of {@link ApiClient.fetch} (tests pass a fake one); defaults to the browser's fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** A fetch request for {@link ApiClient.fetch}: headers as a plain record. */
export interface AuthorizedFetchInit extends Omit<RequestInit, 'headers'> {
  headers?: Record<string, string>;
}

export interface ApiClient {
  readonly axios: AxiosInstance;
  get<T>(url: string, config?: AxiosRequestConfig): Promise<T>;
  post<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T>;
  patch<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T>;
  delete<T>(url: string, config?: AxiosRequestConfig): Promise<T>;
  /** Ends the local session: clears the storage (keeping language and remembered e-mail) and goes to /auth. */
  endSession(): void;
  /**
   * Refreshes the tokens, sharing the one refresh in flight with every other caller, and answers the new
   * access token; when refreshing is impossible the session ends (storage cleared, browser to /auth).
   */
  refreshTokens(): Promise<string>;
  /**
   * `fetch` with the stored bearer token and the UI language, for answers axios cannot stream (event streams).
   * `url` is under `/api/v1` unless it is absolute. A 401 or 403 refreshes the tokens once (the same shared
   * refresh as the other calls) and retries; the answer is returned whatever its status.
   */
  fetch(url: string, init?: AuthorizedFetchInit): Promise<Response>;
}

const currentLanguage = () => toLanguage(i18next.resolvedLanguage ?? i18next.language);

/**
 * The product API client (spec §7): base `/api/v1`, 300 s timeout, JSON, the stored bearer token and the UI
 * language on every request, answers unwrapped. A 401 or 403 from a non-auth endpoint refreshes the tokens
 * once — concurrent failures share one refresh and are retried with the new token; when refreshing is
 * impossible the session ends and the browser goes to /auth (spec §4, §8).
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const redirect = options.redirect ?? ((path: string) => window.location.replace(path));
  const language = options.language ?? currentLanguage;
  const log = options.log ?? ((line: string) => console.error(line));

  const instance = axios.create({
    baseURL: '/api/v1',
    timeout: 300_000,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(options.adapter ? { adapter: options.adapter } : {}),
  });

  let refreshing: Promise<string> | null = null;

  function endSession() {
    clearSession();
    redirect('/auth');
  }

  function refreshTokens(): Promise<string> {
    refreshing ??= (async () => {
      const refreshToken = readRefreshToken();
      if (!refreshToken) {
        log(`[api] ${NO_REFRESH_TOKEN_MESSAGE}`);
        endSession();
        throw new ApiError(401, [{ code: CLIENT_ERROR_CODES.noRefreshToken, message: NO_REFRESH_TOKEN_MESSAGE }]);
      }
      try {
        const response = await instance.post('/auth/refresh-token', { refresh_token: refreshToken });
        const tokens = unwrapBody<TokenPair>(response.data, response.status);
        if (!tokens?.access_token) throw new ApiError(response.status, [{ code: 'SESSION_EXPIRED', message: '' }]);
        storeTokens(tokens);
        return tokens.access_token;
      } catch (error) {
        endSession();
        throw toApiError(error);
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  instance.interceptors.request.use(async (config) => {
    // A call made while tokens are being refreshed waits for the new ones instead of failing with the old.
    if (refreshing && !isAuthEndpoint(config.url)) await refreshing.catch(() => undefined);
    const token = readAccessToken();
    // An explicit Authorization (exchange-token, reset-password) wins over the stored token.
    if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
    config.headers.set('Accept-Language', language());
    return config;
  });

  instance.interceptors.response.use(undefined, async (error: unknown) => {
    const config = axios.isAxiosError(error) ? (error.config as RetryableConfig | undefined) : undefined;
    const status = axios.isAxiosError(error) ? error.response?.status : undefined;
    if (config && (status === 401 || status === 403) && !config._retried && !isAuthEndpoint(config.url)) {
      config._retried = true;
      const sent = String(config.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
      const stored = readAccessToken();
      // Someone refreshed while this call was out: retry with the new token, no second refresh.
      const token = stored && stored !== sent && !refreshing ? stored : await refreshTokens();
      config.headers.set('Authorization', `Bearer ${token}`);
      return instance.request(config);
    }
    const apiError = toApiError(error);
    const method = (config?.method ?? 'get').toUpperCase();
    log(`[api] ${method} ${config?.url ?? '?'} failed (${apiError.status ?? apiError.code}): ${apiError.message}`);
    throw apiError;
  });

  const transport = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));

  async function authorizedFetch(url: string, init: AuthorizedFetchInit = {}): Promise<Response> {
    const target = /^[a-z]+:\/\//i.test(url) || url.startsWith('/api/') ? url : `/api/v1/${url.replace(/^\//, '')}`;
    const attempt = (token: string | null) => {
      const headers: Record<string, string> = { ...init.headers, 'Accept-Language': language() };
      if (token && !init.headers?.Authorization) headers.Authorization = `Bearer ${token}`;
      return transport(target, { ...init, headers });
    };
    if (refreshing && !isAuthEndpoint(url)) await refreshing.catch(() => undefined);
    const sent = readAccessToken();
    const first = await attempt(sent);
    if ((first.status !== 401 && first.status !== 403) || isAuthEndpoint(url) || init.headers?.Authorization)
      return first;
    void first.body?.cancel().catch(() => undefined);
    const stored = readAccessToken();
    // Someone refreshed while this call was out: retry with the new token, no second refresh.
    const token = stored && stored !== sent && !refreshing ? stored : await refreshTokens();
    return attempt(token);
  }

  const unwrap = async <T>(pending: Promise<{ data: unknown; status: number }>): Promise<T> => {
    const response = await pending;
    return unwrapBody<T>(response.data, response.status);
  };

  return {
    axios: instance,
    get: (url, config) => unwrap(instance.get(url, config)),
    post: (url, body, config) => unwrap(instance.post(url, body, config)),
    patch: (url, body, config) => unwrap(instance.patch(url, body, config)),
    delete: (url, config) => unwrap(instance.delete(url, config)),
    endSession,
    refreshTokens,
    fetch: authorizedFetch,
  };
}

/** The app's client. */
export const api = createApiClient();

/** {@link ApiClient.fetch} of the app's client: event streams read with fetch refresh the tokens on 401/403. */
export function authorizedFetch(url: string, init?: AuthorizedFetchInit): Promise<Response> {
  return api.fetch(url, init);
}
