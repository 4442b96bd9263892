import i18next from 'i18next';

import { clearSession, readAccessToken, readRefreshToken, storeTokens, type TokenPair } from '../features/auth/tokens';
import { toLanguage } from '../i18n';
import { ACCOUNT_INACTIVE, reportAccountInactive } from './accountInactive';

/** One entry of the server's error list (docs/product.md §7): `message` is already in the caller's language. */
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

/** docs/product.md §7: a request may take up to 300 s (a JSON chat call waits for its reply). */
export const REQUEST_TIMEOUT_MS = 300_000;

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
 * docs/product.md §7 response unwrapping: an `errors` array raises an {@link ApiError} (messages joined by ', '),
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

/** Thrown by a request that ran out of time; {@link toApiError} reads it as TIMEOUT. */
class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** Any failure of a call as an {@link ApiError}: a timeout as TIMEOUT, anything else as NETWORK_ERROR. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof TimeoutError)
    return new ApiError(undefined, [{ code: CLIENT_ERROR_CODES.timeout, message: error.message }]);
  return new ApiError(undefined, [{ code: CLIENT_ERROR_CODES.network, message: 'Network Error' }]);
}

/** A non-2xx answer as an {@link ApiError}: the server's error list when it sent one, else HTTP_ERROR. */
function errorOfStatus(status: number, body: unknown): ApiError {
  try {
    unwrapBody(body, status);
  } catch (apiError) {
    if (apiError instanceof ApiError) return apiError;
  }
  return new ApiError(status, [
    { code: CLIENT_ERROR_CODES.http, message: `Request failed with status code ${status}` },
  ]);
}

/** Calls under /auth and /users (sign-in, refresh, password reset) never trigger a token refresh. */
export function isAuthEndpoint(url: string | undefined): boolean {
  return /^\/?(auth|users)(\/|$)/.test(url ?? '');
}

const isAbsolute = (url: string) => /^[a-z]+:\/\//i.test(url);

/** A path under /api/v1 (or an absolute URL, kept as is). */
function apiUrl(url: string): string {
  return isAbsolute(url) ? url : `/api/v1/${url.replace(/^\/+/, '')}`;
}

/** Query parameters: `undefined` and `null` values are left out. */
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestConfig {
  /** Extra headers; an `Authorization` here wins over the stored token (reset link, exchange token). */
  headers?: Record<string, string>;
  params?: QueryParams;
}

/** A successful answer's whole (parsed) body, envelope included. */
export interface RawResponse<T> {
  data: T;
}

/**
 * The calls answering the whole body: for answers whose envelope holds more than `data` (a paginated list's
 * `meta`). Errors are thrown as {@link ApiError}, as with the unwrapping calls.
 */
export interface RawClient {
  get<T = unknown>(url: string, config?: RequestConfig): Promise<RawResponse<T>>;
  post<T = unknown>(url: string, body?: unknown, config?: RequestConfig): Promise<RawResponse<T>>;
  patch<T = unknown>(url: string, body?: unknown, config?: RequestConfig): Promise<RawResponse<T>>;
  delete<T = unknown>(url: string, config?: RequestConfig): Promise<RawResponse<T>>;
}

export interface ApiClientOptions {
  /** Where the browser goes when the session cannot be refreshed; defaults to `location.replace`. */
  redirect?: (path: string) => void;
  /** The language sent as Accept-Language; defaults to the active UI language. */
  language?: () => string;
  /** Failed requests are logged with method and path (docs/product.md §8); defaults to console.error. */
  log?: (line: string) => void;
  /** The transport of every call (tests pass a fake one); defaults to the browser's fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Milliseconds a JSON call may take, answer included; defaults to {@link REQUEST_TIMEOUT_MS}. */
  timeout?: number;
  /**
   * A call answered 403 ACCOUNT_INACTIVE (the account was disabled while the app was open); defaults to
   * {@link reportAccountInactive}, which shows the inactive-tenant modal.
   */
  onAccountInactive?: () => void;
}

/** A fetch request for {@link ApiClient.fetch}: headers as a plain record. */
export interface AuthorizedFetchInit extends Omit<RequestInit, 'headers'> {
  headers?: Record<string, string>;
}

export interface ApiClient {
  /**
   * The calls answering the whole body (status and envelope). Named after the HTTP library it replaced, so
   * that its callers (paginated lists) and their test doubles did not have to change.
   */
  readonly axios: RawClient;
  get<T>(url: string, config?: RequestConfig): Promise<T>;
  post<T>(url: string, body?: unknown, config?: RequestConfig): Promise<T>;
  patch<T>(url: string, body?: unknown, config?: RequestConfig): Promise<T>;
  put<T>(url: string, body?: unknown, config?: RequestConfig): Promise<T>;
  delete<T>(url: string, config?: RequestConfig): Promise<T>;
  /** Ends the local session: clears the storage (keeping language and remembered e-mail) and goes to /auth. */
  endSession(): void;
  /**
   * Refreshes the tokens, sharing the one refresh in flight with every other caller, and answers the new
   * access token; when refreshing is impossible the session ends (storage cleared, browser to /auth).
   */
  refreshTokens(): Promise<string>;
  /**
   * `fetch` with the stored bearer token and the UI language, for answers read as they arrive (event streams)
   * and for uploads. `url` is under `/api/v1` unless it is absolute. A 401 or 403 refreshes the tokens once (the
   * same shared refresh as the other calls) and retries; the answer is returned whatever its status. Throws the
   * refresh's {@link ApiError} when the session cannot be refreshed.
   */
  fetch(url: string, init?: AuthorizedFetchInit): Promise<Response>;
}

const currentLanguage = () => toLanguage(i18next.resolvedLanguage ?? i18next.language);

/** A body as JSON when it is one, else its text ('' when empty). */
function parseBody(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function withParams(url: string, params: QueryParams | undefined): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value != null) query.append(key, String(value));
  const search = query.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

/** A 403 whose error list says the account is disabled: not a token problem, so no refresh. */
function isAccountInactive(status: number, body: unknown): boolean {
  return (
    status === 403 &&
    isRecord(body) &&
    Array.isArray(body.errors) &&
    body.errors.some((error) => isRecord(error) && error.code === ACCOUNT_INACTIVE)
  );
}

const hasHeader = (headers: Record<string, string> | undefined, name: string) =>
  Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name.toLowerCase());

/**
 * The product API client (docs/product.md §7): base `/api/v1`, 300 s timeout, JSON, the stored bearer token and the UI
 * language on every request, answers unwrapped. A 401 or 403 from a non-auth endpoint refreshes the tokens
 * once — concurrent failures share one refresh and are retried with the new token; when refreshing is
 * impossible the session ends and the browser goes to /auth (docs/product.md §4, §8).
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const redirect = options.redirect ?? ((path: string) => window.location.replace(path));
  const language = options.language ?? currentLanguage;
  const log = options.log ?? ((line: string) => console.error(line));
  const transport = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
  const timeout = options.timeout ?? REQUEST_TIMEOUT_MS;
  const onAccountInactive = options.onAccountInactive ?? reportAccountInactive;

  let refreshing: Promise<string> | null = null;

  function endSession() {
    clearSession();
    redirect('/auth');
  }

  /** One JSON exchange with the server, bounded by the timeout (the whole answer included). */
  async function send(method: string, url: string, body: unknown, config: RequestConfig, token: string | null) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, config.headers);
    // An explicit Authorization (exchange-token, reset-password) wins over the stored token.
    if (token && !hasHeader(config.headers, 'Authorization')) headers.Authorization = `Bearer ${token}`;
    headers['Accept-Language'] = language();

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    try {
      const response = await transport(withParams(apiUrl(url), config.params), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      return { status: response.status, ok: response.ok, data: parseBody(await response.text()) };
    } catch (error) {
      throw timedOut ? new TimeoutError(`timeout of ${timeout}ms exceeded`) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A call with the stored token, retried once with fresh tokens after a 401 or 403 (non-auth endpoints). */
  async function request<T>(
    method: string,
    url: string,
    body: unknown,
    config: RequestConfig = {},
  ): Promise<{ data: T; status: number }> {
    try {
      // A call made while tokens are being refreshed waits for the new ones instead of failing with the old
      // (and fails with the refresh, which has ended the session).
      if (refreshing && !isAuthEndpoint(url)) await refreshing;
      const sent = readAccessToken();
      let response = await send(method, url, body, config, sent);
      const explicit = hasHeader(config.headers, 'Authorization');
      const refusedToken =
        response.status === 401 || (response.status === 403 && !isAccountInactive(response.status, response.data));
      if (refusedToken && !isAuthEndpoint(url) && !explicit) {
        const stored = readAccessToken();
        // Someone refreshed while this call was out: retry with the new token, no second refresh.
        const token = stored && stored !== sent && !refreshing ? stored : await refreshTokens();
        response = await send(method, url, body, config, token);
      }
      if (isAccountInactive(response.status, response.data)) onAccountInactive();
      if (!response.ok) throw errorOfStatus(response.status, response.data);
      return { data: response.data as T, status: response.status };
    } catch (error) {
      const apiError = toApiError(error);
      log(`[api] ${method} ${url} failed (${apiError.status ?? apiError.code}): ${apiError.message}`);
      throw apiError;
    }
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
        const response = await request('POST', '/auth/refresh-token', { refresh_token: refreshToken });
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

  async function authorizedFetch(url: string, init: AuthorizedFetchInit = {}): Promise<Response> {
    const target = isAbsolute(url) || url.startsWith('/api/') ? url : apiUrl(url);
    const attempt = (token: string | null) => {
      const headers: Record<string, string> = { ...init.headers, 'Accept-Language': language() };
      if (token && !init.headers?.Authorization) headers.Authorization = `Bearer ${token}`;
      return transport(target, { ...init, headers });
    };
    if (refreshing && !isAuthEndpoint(url)) await refreshing;
    const sent = readAccessToken();
    const first = await attempt(sent);
    if (await answersInactive(first)) return first;
    if ((first.status !== 401 && first.status !== 403) || isAuthEndpoint(url) || init.headers?.Authorization)
      return first;
    void first.body?.cancel().catch(() => undefined);
    const stored = readAccessToken();
    // Someone refreshed while this call was out: retry with the new token, no second refresh.
    const token = stored && stored !== sent && !refreshing ? stored : await refreshTokens();
    const second = await attempt(token);
    await answersInactive(second);
    return second;
  }

  /** Reports a 403 ACCOUNT_INACTIVE answer of {@link authorizedFetch}, reading a copy so the caller keeps the body. */
  async function answersInactive(response: Response): Promise<boolean> {
    if (response.status !== 403) return false;
    let body: unknown = null;
    try {
      body = parseBody(await response.clone().text());
    } catch {
      return false;
    }
    if (!isAccountInactive(response.status, body)) return false;
    onAccountInactive();
    return true;
  }

  const unwrap = async <T>(pending: Promise<{ data: unknown; status: number }>): Promise<T> => {
    const response = await pending;
    return unwrapBody<T>(response.data, response.status);
  };

  return {
    axios: {
      get: (url, config) => request('GET', url, undefined, config),
      post: (url, body, config) => request('POST', url, body, config),
      patch: (url, body, config) => request('PATCH', url, body, config),
      delete: (url, config) => request('DELETE', url, undefined, config),
    },
    get: (url, config) => unwrap(request('GET', url, undefined, config)),
    post: (url, body, config) => unwrap(request('POST', url, body, config)),
    patch: (url, body, config) => unwrap(request('PATCH', url, body, config)),
    put: (url, body, config) => unwrap(request('PUT', url, body, config)),
    delete: (url, config) => unwrap(request('DELETE', url, undefined, config)),
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
