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
}

export interface ApiClient {
  readonly axios: AxiosInstance;
  get<T>(url: string, config?: AxiosRequestConfig): Promise<T>;
  post<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T>;
  patch<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T>;
  delete<T>(url: string, config?: AxiosRequestConfig): Promise<T>;
  /** Ends the local session: clears the storage (keeping language and remembered e-mail) and goes to /auth. */
  endSession(): void;
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
  };
}

/** The app's client. */
export const api = createApiClient();
