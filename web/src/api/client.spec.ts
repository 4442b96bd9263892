import { ApiError, createApiClient, isAuthEndpoint, NO_REFRESH_TOKEN_MESSAGE, unwrapBody } from './client';

interface Call {
  method: string;
  /** The path under /api/v1, query included. */
  url: string;
  authorization: string | undefined;
  language: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Reply = { status: number; body: unknown } | { status: number; text: string };
type Handler = (call: Call, signal: AbortSignal | undefined) => Reply | Promise<Reply>;

/** A Response as far as the client reads one. */
function fakeResponse(status: number, text: string): Response {
  const response = {
    status,
    ok: status >= 200 && status < 300,
    text: () => Promise.resolve(text),
    clone: () => fakeResponse(status, text),
    body: null,
  };
  return response as unknown as Response;
}

/** A fake server behind `fetch`: records every call and answers with the handler's status and body. */
function fakeServer(handler: Handler) {
  const calls: Call[] = [];
  const fetch = jest.fn(async (url: string, init: RequestInit): Promise<Response> => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const call: Call = {
      method: init.method ?? 'GET',
      url: url.replace(/^\/api\/v1/, ''),
      authorization: headers.Authorization,
      language: headers['Accept-Language'],
      contentType: headers['Content-Type'],
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    const reply = await handler(call, init.signal ?? undefined);
    return fakeResponse(reply.status, 'text' in reply ? reply.text : JSON.stringify(reply.body));
  });
  return { fetch, calls };
}

function client(handler: Handler, timeout?: number) {
  const server = fakeServer(handler);
  const redirect = jest.fn<void, [string]>();
  const log = jest.fn<void, [string]>();
  const onAccountInactive = jest.fn<void, []>();
  const api = createApiClient({ fetch: server.fetch, redirect, log, language: () => 'es', timeout, onAccountInactive });
  return { api, redirect, log, onAccountInactive, calls: server.calls, fetch: server.fetch };
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

/** Lets the calls in flight reach the fake server and wait there. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => localStorage.clear());

describe('unwrapBody (docs/product.md §7)', () => {
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
  it('sends the stored bearer token and the UI language under /api/v1, and unwraps data', async () => {
    signIn('tok');
    const { api, calls, fetch } = client(() => ({ status: 200, body: { data: { username: 'ana@example.com' } } }));
    await expect(api.get('/account/profile')).resolves.toEqual({ username: 'ana@example.com' });
    expect(calls).toEqual([
      {
        method: 'GET',
        url: '/account/profile',
        authorization: 'Bearer tok',
        language: 'es',
        contentType: undefined,
        body: undefined,
      },
    ]);
    expect(fetch.mock.calls[0][0]).toBe('/api/v1/account/profile');
    expect(fetch.mock.calls[0][1].headers).toMatchObject({ Accept: 'application/json' });
  });

  it('sends a body as JSON with its content type', async () => {
    const { api, calls } = client(() => ({ status: 201, body: { data: { _id: 't1' } } }));
    await expect(api.post('/sparks/s1/tests', { name: 'Prueba' })).resolves.toEqual({ _id: 't1' });
    await api.patch('sparks/s1', { pin: true });
    await api.delete('/sparks/s1');
    expect(calls.map((c) => [c.method, c.url, c.contentType, c.body])).toEqual([
      ['POST', '/sparks/s1/tests', 'application/json', { name: 'Prueba' }],
      ['PATCH', '/sparks/s1', 'application/json', { pin: true }],
      ['DELETE', '/sparks/s1', undefined, undefined],
    ]);
  });

  it('puts params in the query (leaving out undefined and null), and its raw calls answer the whole body', async () => {
    const body = { data: [{ _id: 's1' }], meta: { total: 7, page: 2, limit: 4 } };
    const { api, calls } = client(() => ({ status: 200, body }));
    await expect(
      api.axios.get('/sparks', { params: { page: 2, limit: 4, pinned: 'false', skip: undefined, none: null } }),
    ).resolves.toMatchObject({ data: body });
    await api.axios.get('/objectives/a b?x=1', { params: { lang: 'es' } });
    expect(calls.map((c) => c.url)).toEqual(['/sparks?page=2&limit=4&pinned=false', '/objectives/a b?x=1&lang=es']);
  });

  it('answers an empty body as an empty string and a text body as its text', async () => {
    const { api } = client((call) => (call.url === '/empty' ? { status: 204, text: '' } : { status: 200, text: 'hi' }));
    await expect(api.delete('/empty')).resolves.toBe('');
    await expect(api.get('/text')).resolves.toBe('hi');
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

  it('turns an error without an envelope (a proxy page) into HTTP_ERROR with its status', async () => {
    const { api } = client(() => ({ status: 502, text: '<html>Bad gateway</html>' }));
    await expect(api.axios.get('/sparks')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'Request failed with status code 502',
    });
  });

  it('reports a network failure as NETWORK_ERROR and logs it', async () => {
    const { api, log } = client(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.get('/sparks')).rejects.toMatchObject({ status: undefined, code: 'NETWORK_ERROR' });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('GET /sparks failed'));
  });

  describe('timeout', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('aborts a call after 300 s, not before, and reports TIMEOUT', async () => {
      let aborted = false;
      const { api } = client(
        (_call, signal) =>
          new Promise<never>((_resolve, reject) =>
            signal?.addEventListener('abort', () => {
              aborted = true;
              reject(new DOMException('The operation was aborted.', 'AbortError'));
            }),
          ),
      );
      let outcome: unknown = 'pending';
      api.post('/sparks/s1/chat/t1', { input: { text: 'hola' } }).catch((error: unknown) => (outcome = error));
      await jest.advanceTimersByTimeAsync(299_999);
      expect(outcome).toBe('pending');
      expect(aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(aborted).toBe(true);
      expect(outcome).toBeInstanceOf(ApiError);
      expect(outcome).toMatchObject({ status: undefined, code: 'TIMEOUT' });
    });

    it('leaves no timer behind once answered', async () => {
      const { api } = client(() => ({ status: 200, body: { data: 1 } }));
      await api.get('/quick');
      expect(jest.getTimerCount()).toBe(0);
    });
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
      await settle();
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

  it('a request made while the tokens are being refreshed waits and goes out once, with the new token', async () => {
    signIn('old-access');
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    const { api, calls } = client(async (call) => {
      if (call.url === '/auth/refresh-token') {
        await refreshGate;
        return { status: 200, body: { data: { access_token: 'new-access', refresh_token: 'refresh-2' } } };
      }
      if (call.authorization !== 'Bearer new-access')
        return { status: 403, body: envelope(403, { code: 'X', message: 'no' }) };
      return { status: 200, body: { data: call.url } };
    });
    const first = api.get('/sparks');
    await settle();
    const later = api.get('/account/profile');
    await settle();
    releaseRefresh();
    await expect(Promise.all([first, later])).resolves.toEqual(['/sparks', '/account/profile']);
    expect(calls.filter((c) => c.url === '/account/profile').map((c) => c.authorization)).toEqual([
      'Bearer new-access',
    ]);
  });

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
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    const { api, calls, redirect } = client(async (call) => {
      if (call.url !== '/auth/refresh-token')
        return { status: 403, body: envelope(403, { code: 'FORBIDDEN', message: 'no' }) };
      await refreshGate;
      return { status: 401, body: envelope(401, { code: 'SESSION_EXPIRED', message: 'Your session has expired' }) };
    });

    const failed = [api.get('/sparks'), api.get('/billing/catalog/credits')];
    await settle();
    // Made while the refresh is out: it waits for it, and is never sent.
    const waiting = api.get('/account/profile');
    await settle();
    releaseRefresh();
    const results = await Promise.allSettled([...failed, waiting]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results)
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'SESSION_EXPIRED', status: 401 });
    expect(calls.filter((c) => c.url === '/auth/refresh-token')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/account/profile')).toHaveLength(0);
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

describe('a disabled account (403 ACCOUNT_INACTIVE)', () => {
  const inactive = envelope(403, { code: 'ACCOUNT_INACTIVE', message: 'This account is disabled' });

  it('a JSON call reports it, does not refresh the tokens, and fails with the code', async () => {
    signIn('tok');
    const { api, calls, onAccountInactive, redirect } = client(() => ({ status: 403, body: inactive }));
    const failure = await api.post('/sparks', { name: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).hasCode('ACCOUNT_INACTIVE')).toBe(true);
    expect(onAccountInactive).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.url)).toEqual(['/sparks']);
    expect(redirect).not.toHaveBeenCalled();
    expect(localStorage.getItem('access_token')).toBe('tok');
  });

  it('another 403 (a token refused) still refreshes and is not reported', async () => {
    signIn('old-access');
    const { api, calls, onAccountInactive } = client((call) =>
      call.url === '/auth/refresh-token'
        ? { status: 200, body: { data: { access_token: 'new-access', refresh_token: 'refresh-2' } } }
        : call.authorization === 'Bearer new-access'
          ? { status: 200, body: { data: 'ok' } }
          : { status: 403, body: envelope(403, { code: 'FORBIDDEN', message: 'Forbidden' }) },
    );
    await expect(api.get('/sparks')).resolves.toBe('ok');
    expect(calls.map((c) => c.url)).toEqual(['/sparks', '/auth/refresh-token', '/sparks']);
    expect(onAccountInactive).not.toHaveBeenCalled();
  });

  it('a stream or upload reports it without refreshing, and the caller can still read the body', async () => {
    signIn('tok');
    const { api, calls, onAccountInactive } = client(() => ({ status: 403, body: inactive }));
    const response = await api.fetch('/spark-sys/main/chat?input.text=hola');
    expect(response.status).toBe(403);
    expect(JSON.parse(await response.text())).toEqual(inactive);
    expect(onAccountInactive).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1);
  });
});

describe('fetch (event streams, uploads)', () => {
  /** JSON calls answer as a server would; the other calls get the status `streamStatus` gives. */
  function streamingClient(streamStatus: (call: Call) => number) {
    return client((call) =>
      call.url === '/auth/refresh-token'
        ? { status: 200, body: { data: { access_token: 'new-access', refresh_token: 'refresh-2' } } }
        : { status: streamStatus(call), text: '' },
    );
  }

  it('sends the bearer token and the language under /api/v1, and the request as given', async () => {
    signIn('tok');
    const { api, calls, fetch } = streamingClient(() => 200);
    const response = await api.fetch('/spark-sys/main/chat?input.text=hola', {
      headers: { Accept: 'text/event-stream' },
      cache: 'no-store',
    });
    expect(response.status).toBe(200);
    expect(calls).toEqual([
      {
        method: 'GET',
        url: '/spark-sys/main/chat?input.text=hola',
        authorization: 'Bearer tok',
        language: 'es',
        contentType: undefined,
        body: undefined,
      },
    ]);
    expect(fetch.mock.calls[0][1]).toMatchObject({ cache: 'no-store', headers: { Accept: 'text/event-stream' } });
  });

  it('on 401 refreshes once, shared with the JSON calls, and retries with the new token', async () => {
    signIn('old-access', 'refresh-1');
    const { api, calls } = streamingClient((call) => (call.authorization === 'Bearer new-access' ? 200 : 401));
    const [streamed, refreshed] = await Promise.all([api.fetch('/sparks/s1/chat'), api.refreshTokens()]);
    expect(streamed.status).toBe(200);
    expect(refreshed).toBe('new-access');
    expect(calls.filter((c) => c.url === '/auth/refresh-token')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/sparks/s1/chat').map((c) => c.authorization)).toEqual([
      'Bearer old-access',
      'Bearer new-access',
    ]);
    expect(localStorage.getItem('refresh_token')).toBe('refresh-2');
  });

  it('retries only once: a second 401 is answered to the caller', async () => {
    signIn();
    const { api, calls } = streamingClient(() => 401);
    const response = await api.fetch('/sparks/s1/chat');
    expect(response.status).toBe(401);
    expect(calls.filter((c) => c.url === '/sparks/s1/chat')).toHaveLength(2);
  });
});
