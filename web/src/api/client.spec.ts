import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

import { ApiError, createApiClient, isAuthEndpoint, NO_REFRESH_TOKEN_MESSAGE, unwrapBody } from './client';

interface Call {
  method: string;
  url: string;
  authorization: string | undefined;
  language: string | undefined;
  body: unknown;
}

type Reply = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
type Handler = (call: Call) => Reply;

/** A fake transport: records every call and answers with the handler's status and body (no network). */
function fakeServer(handler: Handler) {
  const calls: Call[] = [];
  const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const headers = AxiosHeaders.from(config.headers);
    const call: Call = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      authorization: headers.get('Authorization')?.toString(),
      language: headers.get('Accept-Language')?.toString(),
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    };
    calls.push(call);
    const { status, body } = await Promise.resolve()
      .then(() => handler(call))
      .catch((error: unknown) => {
        if (error instanceof AxiosError) error.config = config; // as the real adapters do
        throw error;
      });
    const response: AxiosResponse = { data: body, status, statusText: String(status), headers: {}, config };
    if (status >= 400) {
      throw new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_REQUEST', config, {}, response);
    }
    return response;
  };
  return { adapter, calls };
}

function client(handler: Handler) {
  const server = fakeServer(handler);
  const redirect = jest.fn<void, [string]>();
  const log = jest.fn<void, [string]>();
  const api = createApiClient({ adapter: server.adapter, redirect, log, language: () => 'es' });
  return { api, redirect, log, calls: server.calls };
}

const envelope = (statusCode: number, ...errors: Array<{ code: string; message: string; field?: string }>) => ({
  statusCode,
  errors,
});

function signIn(access = 'old-access', refresh = 'refresh-1') {
  localStorage.setItem('access_token', access);
  localStorage.setItem('refresh_token', refresh);
  localStorage.setItem('refresh_Token', refresh);
}

beforeEach(() => localStorage.clear());

describe('unwrapBody (spec §7)', () => {
  it('answers data when there is a data key', () => {
    expect(unwrapBody({ data: { id: 1 } })).toEqual({ id: 1 });
    expect(unwrapBody({ data: null })).toBeNull();
  });

  it('answers the whole body when there is no data key', () => {
    expect(unwrapBody({ access_token: 'a' })).toEqual({ access_token: 'a' });
    expect(unwrapBody('text')).toBe('text');
  });

  it('throws an ApiError with the messages joined by ", " when there is an errors array', () => {
    let thrown: unknown;
    try {
      unwrapBody(
        envelope(
          400,
          { code: 'REQUIRED', message: 'Required field', field: 'username' },
          { code: 'PASSWORD_MIN', message: 'Minimum 8 characters', field: 'password' },
        ),
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const error = thrown as ApiError;
    expect(error.message).toBe('Required field, Minimum 8 characters');
    expect(error.status).toBe(400);
    expect(error.code).toBe('REQUIRED');
    expect(error.errors).toEqual([
      { code: 'REQUIRED', message: 'Required field', field: 'username' },
      { code: 'PASSWORD_MIN', message: 'Minimum 8 characters', field: 'password' },
    ]);
  });

  it('prefers the errors array even next to data', () => {
    expect(() => unwrapBody({ data: 1, errors: [{ code: 'X', message: 'boom' }] }, 200)).toThrow('boom');
  });
});

describe('isAuthEndpoint', () => {
  it('covers /auth and /users calls only', () => {
    expect(isAuthEndpoint('/auth/login')).toBe(true);
    expect(isAuthEndpoint('auth/refresh-token')).toBe(true);
    expect(isAuthEndpoint('/users/reset-password')).toBe(true);
    expect(isAuthEndpoint('/account/profile')).toBe(false);
    expect(isAuthEndpoint('/authors')).toBe(false);
  });
});

describe('createApiClient', () => {
  it('sends JSON, the stored bearer token and the UI language, and unwraps data', async () => {
    signIn('tok');
    const { api, calls } = client(() => ({ status: 200, body: { data: { username: 'ana@example.com' } } }));
    await expect(api.get('/account/profile')).resolves.toEqual({ username: 'ana@example.com' });
    expect(calls).toEqual([
      { method: 'GET', url: '/account/profile', authorization: 'Bearer tok', language: 'es', body: undefined },
    ]);
    expect(api.axios.defaults.baseURL).toBe('/api/v1');
    expect(api.axios.defaults.timeout).toBe(300000);
  });

  it('keeps an explicit Authorization header (reset link, one-time exchange token)', async () => {
    signIn('stored');
    const { api, calls } = client(() => ({ status: 200, body: { data: { username: 'x' } } }));
    await api.post('/users/reset-password', { newPassword: 'N3w!pass' }, { headers: { Authorization: 'Bearer link' } });
    expect(calls[0].authorization).toBe('Bearer link');
  });

  it('turns an error envelope into an ApiError and logs method and path', async () => {
    const { api, log } = client(() => ({
      status: 400,
      body: envelope(400, { code: 'WRONG_CREDENTIALS', message: 'Usuario o contraseña incorrectos' }),
    }));
    const failure = api.post('/auth/login', { username: 'a@b.co', password: 'x' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      message: 'Usuario o contraseña incorrectos',
      errors: [{ code: 'WRONG_CREDENTIALS', message: 'Usuario o contraseña incorrectos' }],
    });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('POST /auth/login failed (400)'));
  });

  it('reports a network failure as NETWORK_ERROR and logs it', async () => {
    const { api, log } = client(() => {
      throw new AxiosError('Network Error', 'ERR_NETWORK');
    });
    await expect(api.get('/sparks')).rejects.toMatchObject({ status: undefined, code: 'NETWORK_ERROR' });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('GET /sparks failed'));
  });

  it('does not refresh on a 401 from an auth endpoint', async () => {
    signIn();
    const { api, calls } = client(() => ({
      status: 401,
      body: envelope(401, { code: 'UNAUTHORIZED', message: 'You need to sign in' }),
    }));
    await expect(api.post('/auth/logout')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/auth/logout']);
  });

  it.each([401, 403])(
    'on %i refreshes once for concurrent requests and retries each with the new token',
    async (status) => {
      signIn('old-access', 'refresh-1');
      let releaseRefresh!: () => void;
      const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
      const { api, calls, redirect } = client(async (call) => {
        if (call.url === '/auth/refresh-token') {
          await refreshGate;
          return { status: 200, body: { data: { access_token: 'new-access', refresh_token: 'refresh-2' } } };
        }
        if (call.authorization !== 'Bearer new-access')
          return { status, body: envelope(status, { code: 'X', message: 'no' }) };
        return { status: 200, body: { data: `ok ${call.url}` } };
      });

      const pending = Promise.all([api.get('/sparks'), api.get('/objectives/deploy'), api.get('/account/profile')]);
      // Let the three first attempts fail and wait on the one refresh.
      await new Promise((resolve) => setTimeout(resolve, 0));
      releaseRefresh();

      await expect(pending).resolves.toEqual(['ok /sparks', 'ok /objectives/deploy', 'ok /account/profile']);
      const refreshes = calls.filter((c) => c.url === '/auth/refresh-token');
      expect(refreshes).toHaveLength(1);
      expect(refreshes[0].body).toEqual({ refresh_token: 'refresh-1' });
      expect(
        calls.filter((c) => c.url !== '/auth/refresh-token' && c.authorization === 'Bearer new-access'),
      ).toHaveLength(3);
      expect(localStorage.getItem('access_token')).toBe('new-access');
      expect(localStorage.getItem('refresh_token')).toBe('refresh-2');
      expect(localStorage.getItem('refresh_Token')).toBe('refresh-2');
      expect(redirect).not.toHaveBeenCalled();
    },
  );

  it('retries only once: a second 401 after the refresh is the caller’s error', async () => {
    signIn();
    const { api, calls } = client((call) =>
      call.url === '/auth/refresh-token'
        ? { status: 200, body: { data: { access_token: 'new', refresh_token: 'r2' } } }
        : { status: 401, body: envelope(401, { code: 'UNAUTHORIZED', message: 'You need to sign in' }) },
    );
    await expect(api.get('/sparks')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(calls.map((c) => c.url)).toEqual(['/sparks', '/auth/refresh-token', '/sparks']);
  });

  it('when the refresh fails, every waiting request fails, storage is cleared (but language and remembered e-mail) and the browser goes to /auth', async () => {
    signIn();
    localStorage.setItem('i18nextLng', 'es');
    localStorage.setItem('rememberMe', 'true');
    localStorage.setItem('emailForLogin', 'ana@example.com');
    localStorage.setItem('chat_conversations', '{}');
    localStorage.setItem('activeSparkId', 's1');
    const { api, calls, redirect } = client((call) =>
      call.url === '/auth/refresh-token'
        ? { status: 401, body: envelope(401, { code: 'SESSION_EXPIRED', message: 'Your session has expired' }) }
        : { status: 403, body: envelope(403, { code: 'FORBIDDEN', message: 'no' }) },
    );

    const results = await Promise.allSettled([api.get('/sparks'), api.get('/billing/catalog/credits')]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SESSION_EXPIRED', status: 401 });
    expect(calls.filter((c) => c.url === '/auth/refresh-token')).toHaveLength(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(redirect).toHaveBeenCalledWith('/auth');
    expect({ ...localStorage }).toEqual({ i18nextLng: 'es', rememberMe: 'true', emailForLogin: 'ana@example.com' });
  });

  it('without a refresh token fails with "No refresh token available" and logs out', async () => {
    localStorage.setItem('access_token', 'old');
    const { api, calls, redirect } = client(() => ({
      status: 403,
      body: envelope(403, { code: 'FORBIDDEN', message: 'no' }),
    }));
    await expect(api.get('/sparks')).rejects.toMatchObject({ message: NO_REFRESH_TOKEN_MESSAGE, status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/sparks']);
    expect(redirect).toHaveBeenCalledWith('/auth');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('a request that failed with an old token after another refresh is retried with the stored one', async () => {
    signIn('old');
    const { api, calls } = client((call) => {
      if (call.authorization === 'Bearer old') {
        // Another caller refreshed the tokens while this request was out.
        localStorage.setItem('access_token', 'fresh');
        return { status: 401, body: envelope(401, { code: 'UNAUTHORIZED', message: 'x' }) };
      }
      return { status: 200, body: { data: call.authorization } };
    });
    await expect(api.get('/slow')).resolves.toBe('Bearer fresh');
    expect(calls.map((c) => [c.url, c.authorization])).toEqual([
      ['/slow', 'Bearer old'],
      ['/slow', 'Bearer fresh'],
    ]);
  });
});

describe('fetch (event streams)', () => {
  interface FetchCall {
    url: string;
    authorization: string | undefined;
    language: string | undefined;
  }

  function streamingClient(handler: (call: FetchCall) => number) {
    const fetchCalls: FetchCall[] = [];
    const server = fakeServer((call) =>
      call.url === '/auth/refresh-token'
        ? { status: 200, body: { data: { access_token: 'new-access', refresh_token: 'refresh-2' } } }
        : { status: 200, body: { data: 'ok' } },
    );
    const fakeFetch = jest.fn((url: string, init: RequestInit) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      const call = { url, authorization: headers.Authorization, language: headers['Accept-Language'] };
      fetchCalls.push(call);
      return Promise.resolve({ status: handler(call), body: null } as unknown as Response);
    });
    const redirect = jest.fn<void, [string]>();
    const api = createApiClient({
      adapter: server.adapter,
      fetch: fakeFetch,
      redirect,
      log: () => undefined,
      language: () => 'es',
    });
    return { api, fetchCalls, axiosCalls: server.calls, redirect };
  }

  it('sends the bearer token and the language under /api/v1', async () => {
    signIn('tok');
    const { api, fetchCalls } = streamingClient(() => 200);
    const response = await api.fetch('/spark-sys/main/chat?input.text=hola');
    expect(response.status).toBe(200);
    expect(fetchCalls).toEqual([
      { url: '/api/v1/spark-sys/main/chat?input.text=hola', authorization: 'Bearer tok', language: 'es' },
    ]);
  });

  it('on 401 refreshes once, shared with axios calls, and retries with the new token', async () => {
    signIn('old-access', 'refresh-1');
    const { api, fetchCalls, axiosCalls } = streamingClient((call) =>
      call.authorization === 'Bearer new-access' ? 200 : 401,
    );
    const [streamed, refreshed] = await Promise.all([api.fetch('/sparks/s1/chat'), api.refreshTokens()]);
    expect(streamed.status).toBe(200);
    expect(refreshed).toBe('new-access');
    expect(axiosCalls.filter((c) => c.url === '/auth/refresh-token')).toHaveLength(1);
    expect(fetchCalls.map((c) => c.authorization)).toEqual(['Bearer old-access', 'Bearer new-access']);
    expect(localStorage.getItem('refresh_token')).toBe('refresh-2');
  });

  it('retries only once: a second 401 is answered to the caller', async () => {
    signIn();
    const { api, fetchCalls } = streamingClient(() => 401);
    const response = await api.fetch('/sparks/s1/chat');
    expect(response.status).toBe(401);
    expect(fetchCalls).toHaveLength(2);
  });
});
