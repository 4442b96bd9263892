import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { waitFor } from '@testing-library/dom';
import './chat';
import { FEEDBACK_TEXTS } from './feedback-texts';
import { PRIVACY_TEXTS, privacyText } from './privacy-texts';
import { TEXTS, text } from './texts';
import type { WidgetConfig } from './types';

const API = 'https://app.example/api/v1/public/widgets/dt_test';
const CONFIG: WidgetConfig = {
  sparkId: '8f7c5f0e-0000-4000-8000-000000000001',
  name: 'Northwind',
  language: 'en',
  initialMessage: 'Hello!',
  position: 'right',
  theme: { primary: '#4f46e5', secondary: '#eef2ff', icon: null, iconPaths: [] },
  retentionDays: 90,
};
const CONVERSATION = '8f7c5f0e-0000-4000-8000-000000000002';
const ANSWER = 'Electric bikes cost 45 dollars per day [1].';

/** Response headers (jsdom has no Headers class). */
const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null });

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
const STREAM = sse([
  { type: 'history', messages: [], sessionId: CONVERSATION },
  { type: 'token', messageId: 'a1', text: 'Electric bikes cost 45 dollars' },
  { type: 'token', messageId: 'a1', text: ' per day [1].' },
  { type: 'done', messages: [{ _id: 'a1', type: 'ai', data: { content: ANSWER } }] },
]);

interface Call {
  method: string;
  path: string;
  body?: string;
}

/** A response as the widget reads it: status, JSON body, and whatever `extra` overrides. */
const reply = (status: number, json: unknown, extra: Partial<Response> = {}) =>
  ({
    ok: status < 400,
    status,
    headers: headers({}),
    json: () => Promise.resolve(json),
    text: () => Promise.resolve(JSON.stringify(json)),
    body: null,
    ...extra,
  }) as unknown as Response;

/** The widget's public API as the browser's fetch sees it; `body` says how the stream's response carries it. */
function server(streamBody: 'readable' | 'none', deleteStatus = 200) {
  const calls: Call[] = [];
  const fetch = jest.fn((url: string, init: RequestInit = {}) => {
    const path = url.slice(API.length);
    const method = init.method ?? 'GET';
    calls.push({ method, path, body: init.body as string | undefined });
    if (path === '/visitors') return Promise.resolve(reply(200, { data: { visitorToken: 'vt_1' } }));
    if (path === '/conversations') return Promise.resolve(reply(201, { data: { conversationId: CONVERSATION } }));
    if (path === `/conversations/${CONVERSATION}` && method === 'DELETE') {
      return Promise.resolve(deleteStatus === 200 ? reply(200, { data: { deleted: true } }) : reply(deleteStatus, {}));
    }
    if (path === `/conversations/${CONVERSATION}/messages`) {
      return Promise.resolve(
        reply(200, { data: { ai: { _id: 'a1', type: 'ai', data: { content: ANSWER } }, messages: [], human: {} } }),
      );
    }
    if (path === `/conversations/${CONVERSATION}/stream`) {
      const bytes = new TextEncoder().encode(STREAM);
      const body =
        streamBody === 'readable'
          ? new NodeReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(bytes);
                controller.close();
              },
            })
          : null;
      return Promise.resolve(reply(200, {}, { body: body as never, text: () => Promise.resolve(STREAM) }));
    }
    return Promise.resolve(reply(404, { errors: [{ code: 'NOT_FOUND' }] }));
  });
  return { calls, fetch };
}

function mountWidget(language: 'en' | 'es' = 'en', onClose: () => void = () => undefined) {
  const host = document.createElement('div');
  document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  const panel = window.__sparksChat!.mount({
    root,
    api: API,
    base: 'https://app.example',
    config: CONFIG,
    language,
    onClose,
  });
  panel.open();
  const ask = (question: string) => {
    const field = root.querySelector<HTMLTextAreaElement>('form.composer textarea')!;
    field.value = question;
    root.querySelector('form.composer')!.dispatchEvent(new Event('submit', { cancelable: true }));
  };
  const answers = () => Array.from(root.querySelectorAll('li.m.ai')).map((li) => li.querySelector('.b')!.textContent);
  return { root, panel, ask, answers };
}

const sends = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && /\/(stream|messages)$/.test(c.path));

describe('widget chat: streamed answers and the non-streaming fallback', () => {
  const saved = globalThis.ReadableStream;
  afterEach(() => {
    Object.assign(globalThis, { ReadableStream: saved });
    localStorage.clear();
    document.body.replaceChildren();
  });

  it('streams the answer with one request when the browser reads streams', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('readable');
    Object.assign(globalThis, { fetch: api.fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER));
    expect(sends(api.calls)).toEqual([
      {
        method: 'POST',
        path: `/conversations/${CONVERSATION}/stream`,
        body: '{"text":"How much is an electric bike?"}',
      },
    ]);
  });

  it('never asks again once the stream route accepted the question, even without a readable body', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('none');
    Object.assign(globalThis, { fetch: api.fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER));
    // Give a second request (the old fallback) the time to be made.
    await new Promise((r) => setTimeout(r, 50));
    expect(sends(api.calls).map((c) => c.path)).toEqual([`/conversations/${CONVERSATION}/stream`]);
  });

  it('asks the JSON route alone when the browser cannot read streams', async () => {
    Object.assign(globalThis, { ReadableStream: undefined });
    const api = server('none');
    Object.assign(globalThis, { fetch: api.fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER));
    await new Promise((r) => setTimeout(r, 50));
    expect(sends(api.calls).map((c) => c.path)).toEqual([`/conversations/${CONVERSATION}/messages`]);
  });

  it('out of interactions: the e-mail form that is offered keeps the focus (the question box does not take it back)', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('readable');
    const fetch = jest.fn((url: string, init?: RequestInit) =>
      url.endsWith('/stream') ? Promise.resolve(reply(402, {})) : api.fetch(url, init),
    );
    Object.assign(globalThis, { fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.root.querySelector('form.contact input[type="email"]')).not.toBeNull());
    await new Promise((r) => setTimeout(r, 20));
    expect(w.root.activeElement).toBe(w.root.querySelector('form.contact input[type="email"]'));
  });

  it('out of interactions: an e-mail the server refuses is said to be wrong, in the form, which stays to correct it', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('readable');
    const fetch = jest.fn((url: string, init?: RequestInit) => {
      if (url.endsWith('/stream')) return Promise.resolve(reply(402, {}));
      if (url.endsWith('/contact')) return Promise.resolve(reply(400, { errors: [{ code: 'INVALID_PARAMS' }] }));
      return api.fetch(url, init);
    });
    Object.assign(globalThis, { fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.root.querySelector('form.contact input[type="email"]')).not.toBeNull());
    const input = w.root.querySelector<HTMLInputElement>('form.contact input')!;
    input.value = 'a@b';
    w.root.querySelector('form.contact')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await waitFor(() => expect(w.root.querySelector('form.contact')!.textContent).toContain(TEXTS.en.emailInvalid));
    expect(w.root.querySelector('.log')!.textContent).not.toContain(TEXTS.en.failed);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(w.root.activeElement).toBe(input);
    // Corrected and taken: the form goes, with its row, and the thanks follow the apology.
    fetch.mockImplementation((url: string, init?: RequestInit) =>
      url.endsWith('/contact') ? Promise.resolve(reply(200, { data: { saved: true } })) : api.fetch(url, init),
    );
    input.value = 'visitor@example.com';
    w.root.querySelector('form.contact')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await waitFor(() => expect(w.root.querySelector('form.contact')).toBeNull());
    expect(Array.from(w.root.querySelectorAll('li.m.note')).map((li) => li.textContent)).toEqual([
      TEXTS.en.outOfInteractions,
      TEXTS.en.emailSaved,
    ]);
  });

  it.each([
    [
      'the conversation cannot be started (offline)',
      '/conversations',
      () => Promise.reject(new TypeError('Failed to fetch')),
      TEXTS.en.failed,
    ],
    [
      'the send is rate-limited',
      '/stream',
      () => Promise.resolve(reply(429, {}, { headers: headers({ 'retry-after': '30' }) as never })),
      text('en', 'tooMany', { seconds: 30 }),
    ],
  ])(
    'a question that was not taken (%s) is said so and comes back to the box to send again',
    async (_case, path, refuse, said) => {
      Object.assign(globalThis, { ReadableStream: NodeReadableStream });
      const api = server('readable');
      const fetch = jest.fn((url: string, init?: RequestInit) =>
        url.endsWith(path) ? refuse() : api.fetch(url, init),
      );
      Object.assign(globalThis, { fetch });
      const w = mountWidget();
      w.ask('How much is an electric bike?');
      await waitFor(() => expect(w.root.querySelector('li.m.note')?.textContent).toBe(said));
      expect(w.root.querySelectorAll('li.m.human')).toHaveLength(0);
      const field = w.root.querySelector('textarea')!;
      expect(field.value).toBe('How much is an electric bike?');
      await waitFor(() => expect(w.root.querySelector<HTMLButtonElement>('button.send')!.disabled).toBe(false));
      expect(w.root.activeElement).toBe(field);
    },
  );

  it('writes and shows each message in its own direction (a visitor may type Arabic or Hebrew)', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    Object.assign(globalThis, { fetch: server('readable').fetch });
    const w = mountWidget();
    expect(w.root.querySelector('textarea')!.getAttribute('dir')).toBe('auto');
    w.ask('שלום, מה שעות הפתיחה?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER));
    const bodies = Array.from(w.root.querySelectorAll('li.m .b'));
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(body.getAttribute('dir')).toBe('auto');
  });

  it('a stream cut before its end: the answer is read back from the conversation, the question not sent again', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('readable');
    const cut = new NodeReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode(
            sse([
              { type: 'history', messages: [], sessionId: CONVERSATION },
              { type: 'token', messageId: 'a1', text: 'Electric bikes' },
            ]),
          ),
        );
        controller.error(new TypeError('network error'));
      },
    });
    const stored = {
      data: {
        messages: [
          { _id: 'h1', type: 'human', data: { content: 'How much is an electric bike?' } },
          { _id: 'a1', type: 'ai', data: { content: ANSWER } },
        ],
      },
    };
    const fetch = jest.fn((url: string, init?: RequestInit) => {
      if (url.endsWith('/stream')) return Promise.resolve(reply(200, {}, { body: cut as never }));
      if (url === `${API}/conversations/${CONVERSATION}` && !init?.method) return Promise.resolve(reply(200, stored));
      return api.fetch(url, init);
    });
    Object.assign(globalThis, { fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER), { timeout: 4000 });
    const sent = fetch.mock.calls.filter(([url, init]) => init?.method === 'POST' && /\/(stream|messages)$/.test(url));
    expect(sent).toHaveLength(1);
  });

  it('a page reloaded while the answer was on its way: the answer is read back and shown, nothing is asked again', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const question = 'How much is an electric bike?';
    // The first page: the stream is cut as the page goes away, the question accepted.
    const cut = new NodeReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sse([{ type: 'history', messages: [], sessionId: CONVERSATION }])));
      },
    });
    const asked = [{ _id: 'h1', type: 'human', data: { content: question } }];
    let stored: unknown[] = asked;
    const api = server('readable');
    const fetch = jest.fn((url: string, init?: RequestInit) => {
      if (url.endsWith('/stream')) return Promise.resolve(reply(200, {}, { body: cut as never }));
      if (url === `${API}/conversations/${CONVERSATION}` && !init?.method) {
        return Promise.resolve(reply(200, { data: { messages: stored } }));
      }
      return api.fetch(url, init);
    });
    Object.assign(globalThis, { fetch });
    mountWidget().ask(question);
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(`${API}/conversations/${CONVERSATION}/stream`, expect.anything()),
    );
    // The reload: a new page on the same storage finds the question without its answer, which lands later.
    document.body.replaceChildren();
    const w = mountWidget();
    await waitFor(() => expect(w.root.querySelector('li.m.ai[aria-busy="true"]')).not.toBeNull());
    stored = [...asked, { _id: 'a1', type: 'ai', data: { content: ANSWER } }];
    await waitFor(() => expect(w.answers()).toContain(ANSWER), { timeout: 4000 });
    expect(w.root.querySelector('li.m.ai[aria-busy]')).toBeNull();
    expect(
      sends(fetch.mock.calls.map(([url, init]) => ({ method: init?.method ?? 'GET', path: url.slice(API.length) }))),
    ).toHaveLength(1);
  });

  it('keeps the stored conversation when reading it back is only rate-limited', async () => {
    localStorage.setItem(`sparks-widget:${CONFIG.sparkId}`, JSON.stringify({ v: 'vt_1', c: CONVERSATION }));
    const api = server('none');
    const fetch = jest.fn((url: string, init?: RequestInit) =>
      url === `${API}/conversations/${CONVERSATION}` && !init?.method
        ? Promise.resolve(reply(429, {}, { headers: headers({ 'retry-after': '30' }) as never }))
        : api.fetch(url, init),
    );
    Object.assign(globalThis, { fetch });
    mountWidget();
    await waitFor(() => expect(fetch).toHaveBeenCalledWith(`${API}/conversations/${CONVERSATION}`, expect.anything()));
    await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(localStorage.getItem(`sparks-widget:${CONFIG.sparkId}`)!)).toMatchObject({ c: CONVERSATION });
  });
});

describe('widget chat on a phone: the full-screen panel keeps the keyboard inside', () => {
  const media = (matches: boolean) =>
    Object.assign(window, { matchMedia: jest.fn(() => ({ matches }) as unknown as MediaQueryList) });
  afterEach(() => {
    Reflect.deleteProperty(window, 'matchMedia');
    localStorage.clear();
    document.body.replaceChildren();
  });
  const tab = (root: ShadowRoot, shiftKey = false) => {
    const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true });
    (root.activeElement as HTMLElement).dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('is modal, and Tab from the last control goes to the first, Shift+Tab from the first to the last', () => {
    media(true);
    Object.assign(globalThis, { fetch: server('none').fetch });
    const { root } = mountWidget();
    const panel = root.querySelector('[role="dialog"]')!;
    expect(panel.getAttribute('aria-modal')).toBe('true');
    const stops = Array.from(panel.querySelectorAll<HTMLElement>('button:not([disabled]):not([hidden]), textarea'));
    stops.at(-1)!.focus();
    expect(tab(root)).toBe(true);
    expect(root.activeElement).toBe(stops[0]);
    expect(tab(root, true)).toBe(true);
    expect(root.activeElement).toBe(stops.at(-1));
  });

  it('beside the page (wider windows) is not modal and lets Tab leave it', () => {
    media(false);
    Object.assign(globalThis, { fetch: server('none').fetch });
    const { root } = mountWidget();
    expect(root.querySelector('[role="dialog"]')!.getAttribute('aria-modal')).toBe('false');
    const stops = Array.from(root.querySelectorAll<HTMLElement>('button:not([disabled]), textarea'));
    stops.at(-1)!.focus();
    expect(tab(root)).toBe(false);
  });
});

describe('widget chat: the longest question (4,000 characters)', () => {
  afterEach(() => {
    localStorage.clear();
    document.body.replaceChildren();
  });
  const typed = (root: ShadowRoot, value: string) => {
    const field = root.querySelector('textarea')!;
    field.value = value;
    field.dispatchEvent(new Event('input'));
  };

  it('shows how long the question is near the limit, says when it is reached, and hides it once sent', async () => {
    Object.assign(globalThis, { fetch: server('none').fetch });
    const { root, ask } = mountWidget();
    const status = root.querySelector<HTMLElement>('[role="status"]')!;
    typed(root, 'How much is a bike?');
    expect(status.hidden).toBe(true);
    typed(root, 'a'.repeat(3650));
    expect(status.hidden).toBe(false);
    expect(status.textContent).toBe('3,650 / 4,000 characters');
    typed(root, 'a'.repeat(4000));
    expect(status.textContent).toBe('That is the limit: 4,000 characters a message. Anything longer was not kept.');
    ask('a'.repeat(4000));
    await waitFor(() => expect(status.hidden).toBe(true));
  });
});

describe('widget chat: what visitors are told, and deleting their own conversation (issue 30)', () => {
  const saved = globalThis.ReadableStream;
  afterEach(() => {
    Object.assign(globalThis, { ReadableStream: saved });
    localStorage.clear();
    document.body.replaceChildren();
  });
  const remover = (root: ShadowRoot) =>
    root.querySelector<HTMLButtonElement>(`button[aria-label="${PRIVACY_TEXTS.en.deleteConversation}"]`)!;

  it.each(['en', 'es'] as const)(
    'says before the first message that answers are automatic and how long it is kept (%s)',
    (language) => {
      Object.assign(globalThis, { fetch: server('none').fetch });
      const { root } = mountWidget(language);
      const items = Array.from(root.querySelectorAll('li.m'));
      expect(items.map((li) => li.className)).toEqual(['m ai', 'm notice']);
      expect(items[1].textContent).toBe(privacyText(language, 'notice', 90));
      expect(items[1].textContent).toMatch(language === 'en' ? /automatically.*90 days/ : /automáticamente.*90 días/);
      // No conversation yet: nothing to delete.
      const button = root.querySelectorAll('header button')[0];
      expect(button.getAttribute('aria-label')).toBe(PRIVACY_TEXTS[language].deleteConversation);
      expect(button.hasAttribute('hidden')).toBe(true);
    },
  );

  it('deletes the conversation after a confirmation, with the visitor token, and starts afresh', async () => {
    const api = server('none');
    Object.assign(globalThis, { fetch: api.fetch, ReadableStream: undefined });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER));
    expect(remover(w.root).hidden).toBe(false);

    remover(w.root).click();
    const confirm = w.root.querySelector('.confirm')!;
    expect(confirm.textContent).toContain(PRIVACY_TEXTS.en.deleteConfirm);
    // Cancel keeps everything.
    Array.from(confirm.querySelectorAll('button'))
      .find((b) => b.textContent === PRIVACY_TEXTS.en.deleteNo)!
      .click();
    expect(w.root.querySelector('.confirm')).toBeNull();
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);

    remover(w.root).click();
    Array.from(w.root.querySelectorAll('.confirm button'))
      .find((b) => b.textContent === PRIVACY_TEXTS.en.deleteYes)!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await waitFor(() => expect(w.root.textContent).toContain(PRIVACY_TEXTS.en.deleted));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([
      { method: 'DELETE', path: `/conversations/${CONVERSATION}`, body: undefined },
    ]);
    const auth = (
      api.fetch.mock.calls.find(([, init]) => init?.method === 'DELETE')![1]!.headers as Record<string, string>
    ).Authorization;
    expect(auth).toBe('Bearer vt_1');
    expect(w.answers()).not.toContain(ANSWER);
    expect(JSON.parse(localStorage.getItem(`sparks-widget:${CONFIG.sparkId}`)!).c).toBeUndefined();
    expect(remover(w.root).hidden).toBe(true);
    expect(w.root.querySelector('li.m.notice')).not.toBeNull();

    // The next question opens a new conversation.
    w.ask('And a helmet?');
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/conversations')).toHaveLength(2));
  });

  it('a deletion the server refuses keeps the conversation and says so', async () => {
    const api = server('none', 500);
    Object.assign(globalThis, { fetch: api.fetch, ReadableStream: undefined });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain(ANSWER));
    remover(w.root).click();
    Array.from(w.root.querySelectorAll('.confirm button'))
      .find((b) => b.textContent === PRIVACY_TEXTS.en.deleteYes)!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await waitFor(() => expect(w.root.textContent).toContain(PRIVACY_TEXTS.en.deleteFailed));
    expect(w.answers()).toContain(ANSWER);
    expect(JSON.parse(localStorage.getItem(`sparks-widget:${CONFIG.sparkId}`)!).c).toBe(CONVERSATION);
  });
});

describe('widget chat: rating answers (issue 35)', () => {
  const saved = globalThis.ReadableStream;
  afterEach(() => {
    Object.assign(globalThis, { ReadableStream: saved });
    localStorage.clear();
    document.body.replaceChildren();
  });

  const A1 = '8f7c5f0e-0000-4000-8000-0000000000a1';
  const A2 = '8f7c5f0e-0000-4000-8000-0000000000a2';
  const feedbackPath = (id: string) => `/conversations/${CONVERSATION}/messages/${id}/feedback`;
  /** A conversation read back: answers to rate, one already rated down, and replies that cannot be rated. */
  const HISTORY = [
    { _id: 'h1', type: 'human', data: { content: 'How much is an electric bike?' } },
    { _id: A1, type: 'ai', data: { content: ANSWER, answer: 'answer', sources: [] } },
    { _id: 'h2', type: 'human', data: { content: 'Do you rent helmets?' } },
    {
      _id: A2,
      type: 'ai',
      data: { content: 'My documents do not say.', answer: 'notCovered' },
      feedback: { rating: 'down', comment: 'Helmets are on the price list' },
    },
    { _id: 'h3', type: 'human', data: { content: 'And boats?' } },
    { _id: 'e1', type: 'ai', data: { content: 'Something went wrong.', type: 'error', answer: 'error' } },
    { _id: 'e2', type: 'ai', data: { content: 'Failed too.', answer: 'error' } },
    { _id: 'h4', type: 'human', data: { content: 'Hello?' } },
    // Stored before answers said their kind: nothing tells it is an answer.
    { _id: 'o1', type: 'ai', data: { content: 'An old reply.' } },
  ];

  /**
   * The visitor comes back to a conversation (`history`); the feedback route answers with `rate` (the rating taken by
   * default). Every feedback request is recorded, with its visitor token.
   */
  function comeBack(history: unknown[] = HISTORY, rate?: (call: Call) => Promise<Response>) {
    localStorage.setItem(`sparks-widget:${CONFIG.sparkId}`, JSON.stringify({ v: 'vt_1', c: CONVERSATION }));
    const api = server('none');
    const rated: (Call & { auth?: string })[] = [];
    const fetch = jest.fn((url: string, init: RequestInit = {}) => {
      const path = url.slice(API.length);
      if (path === `/conversations/${CONVERSATION}` && !init.method) {
        return Promise.resolve(reply(200, { data: { conversationId: CONVERSATION, messages: history } }));
      }
      if (path.endsWith('/feedback')) {
        const call = { method: init.method ?? 'GET', path, body: init.body as string };
        rated.push({ ...call, auth: (init.headers as Record<string, string>).Authorization });
        if (rate) return rate(call);
        const { rating, comment } = JSON.parse(call.body) as { rating: string; comment?: string };
        const messageId = path.split('/')[4];
        return Promise.resolve(
          reply(200, { data: { messageId, rating, comment: comment ?? null, ratedAt: '2025-01-01T00:00:00.000Z' } }),
        );
      }
      return api.fetch(url, init);
    });
    Object.assign(globalThis, { fetch });
    return { fetch, rated };
  }
  const rowOf = (root: ShadowRoot, content: string) =>
    Array.from(root.querySelectorAll('li.m.ai'))
      .find((li) => li.querySelector('.b')!.textContent === content)!
      .querySelector<HTMLElement>('.rate');
  const thumbs = (row: HTMLElement, language: 'en' | 'es' = 'en') => ({
    up: row.querySelector<HTMLButtonElement>(`button[aria-label="${FEEDBACK_TEXTS[language].up}"]`)!,
    down: row.querySelector<HTMLButtonElement>(`button[aria-label="${FEEDBACK_TEXTS[language].down}"]`)!,
  });
  const pressed = (row: HTMLElement) => {
    const { up, down } = thumbs(row);
    return { up: up.getAttribute('aria-pressed'), down: down.getAttribute('aria-pressed') };
  };
  const said = (row: HTMLElement) => row.querySelector('[role="status"]')!.textContent;
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('offers the thumbs under the answers only: not the greeting, an error, a reply without a kind, a question', async () => {
    comeBack();
    const w = mountWidget();
    await waitFor(() => expect(w.answers()).toContain('An old reply.'));
    const rows = Array.from(w.root.querySelectorAll('li.m')).map((li) => !!li.querySelector('.rate'));
    // The greeting, the notice, then the conversation read back.
    expect(w.answers()).toEqual([
      CONFIG.initialMessage,
      ANSWER,
      'My documents do not say.',
      'Something went wrong.',
      'Failed too.',
      'An old reply.',
    ]);
    expect(rows).toEqual([false, false, false, true, false, true, false, false, false, false, false]);
    const row = rowOf(w.root, ANSWER)!;
    expect(row.getAttribute('role')).toBe('group');
    expect(w.root.getElementById(row.getAttribute('aria-labelledby')!)!.textContent).toBe('Was this helpful?');
    const { up, down } = thumbs(row);
    expect([up.type, down.type]).toEqual(['button', 'button']);
    expect(pressed(row)).toEqual({ up: 'false', down: 'false' });
  });

  it('restores the rating the visitor gave, and rating down again reopens the comment with what they wrote', async () => {
    const api = comeBack();
    const w = mountWidget();
    await waitFor(() => expect(rowOf(w.root, 'My documents do not say.')).not.toBeNull());
    const row = rowOf(w.root, 'My documents do not say.')!;
    expect(pressed(row)).toEqual({ up: 'false', down: 'true' });
    thumbs(row).down.click();
    const field = row.querySelector<HTMLTextAreaElement>('form.why textarea')!;
    expect(field.value).toBe('Helmets are on the price list');
    expect(w.root.activeElement).toBe(field);
    await settle();
    // The rating down is not sent again (it would drop the comment).
    expect(api.rated).toHaveLength(0);
  });

  it('rates up with the visitor token, presses the thumb and thanks politely', async () => {
    const api = comeBack();
    const w = mountWidget();
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    thumbs(row).up.click();
    await waitFor(() => expect(said(row)).toBe(FEEDBACK_TEXTS.en.thanks));
    expect(api.rated).toEqual([
      { method: 'POST', path: feedbackPath(A1), body: '{"rating":"up"}', auth: 'Bearer vt_1' },
    ]);
    expect(pressed(row)).toEqual({ up: 'true', down: 'false' });
    const status = row.querySelector('[role="status"]')!;
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.classList.contains('err')).toBe(false);
    // Pressed already: nothing is sent again.
    thumbs(row).up.click();
    await settle();
    expect(api.rated).toHaveLength(1);
  });

  it('rates down at once, sends the comment with the rating again, and a rating up then replaces it', async () => {
    const api = comeBack();
    const w = mountWidget();
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    thumbs(row).down.click();
    await waitFor(() => expect(row.querySelector('form.why')).not.toBeNull());
    expect(api.rated.map((c) => c.body)).toEqual(['{"rating":"down"}']);
    expect(pressed(row)).toEqual({ up: 'false', down: 'true' });
    const field = row.querySelector<HTMLTextAreaElement>('form.why textarea')!;
    expect(w.root.activeElement).toBe(field);
    expect(row.querySelector(`label[for="${field.id}"]`)!.textContent).toBe(FEEDBACK_TEXTS.en.why);
    expect(field.maxLength).toBe(500);

    field.value = '  The price is 50 dollars now. ';
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await waitFor(() => expect(row.querySelector('form.why')).toBeNull());
    expect(api.rated.map((c) => [c.path, c.body])).toEqual([
      [feedbackPath(A1), '{"rating":"down"}'],
      [feedbackPath(A1), '{"rating":"down","comment":"The price is 50 dollars now."}'],
    ]);
    expect(w.root.activeElement).toBe(thumbs(row).down);
    expect(said(row)).toBe(FEEDBACK_TEXTS.en.thanks);

    thumbs(row).up.click();
    await waitFor(() => expect(pressed(row)).toEqual({ up: 'true', down: 'false' }));
    expect(api.rated.at(-1)!.body).toBe('{"rating":"up"}');
    // Rated down again later: the old comment went with the rating it belonged to.
    thumbs(row).down.click();
    await waitFor(() => expect(row.querySelector('form.why')).not.toBeNull());
    expect(row.querySelector('textarea')!.value).toBe('');
  });

  it('the comment box closes with Skip or Escape (the chat stays open), sending nothing more', async () => {
    const api = comeBack();
    const onClose = jest.fn();
    const w = mountWidget('en', onClose);
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    thumbs(row).down.click();
    await waitFor(() => expect(row.querySelector('form.why')).not.toBeNull());
    Array.from(row.querySelectorAll<HTMLButtonElement>('form.why button'))
      .find((b) => b.textContent === FEEDBACK_TEXTS.en.skip)!
      .click();
    expect(row.querySelector('form.why')).toBeNull();
    expect(w.root.activeElement).toBe(thumbs(row).down);

    thumbs(row).down.click();
    const field = row.querySelector<HTMLTextAreaElement>('form.why textarea')!;
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(row.querySelector('form.why')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    await settle();
    expect(api.rated).toHaveLength(1);
    expect(pressed(row)).toEqual({ up: 'false', down: 'true' });
  });

  it('a rating the server refuses keeps the one before and says so', async () => {
    const history = HISTORY.map((m) => (m._id === A1 ? { ...m, feedback: { rating: 'up', comment: null } } : m));
    const api = comeBack(history, () => Promise.resolve(reply(500, { errors: [{ code: 'INTERNAL' }] })));
    const w = mountWidget();
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    expect(pressed(row)).toEqual({ up: 'true', down: 'false' });
    thumbs(row).down.click();
    await waitFor(() => expect(said(row)).toBe(FEEDBACK_TEXTS.en.failed));
    expect(api.rated).toHaveLength(1);
    expect(pressed(row)).toEqual({ up: 'true', down: 'false' });
    expect(row.querySelector('[role="status"]')!.classList.contains('err')).toBe(true);
    expect(row.querySelector('form.why')).toBeNull();
    expect(row.hasAttribute('aria-busy')).toBe(false);
  });

  it('a comment the server refuses stays in its box to send again', async () => {
    let refuse = false;
    const api = comeBack(HISTORY, () => Promise.resolve(refuse ? reply(429, {}) : reply(200, { data: {} })));
    const w = mountWidget();
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    thumbs(row).down.click();
    await waitFor(() => expect(row.querySelector('form.why')).not.toBeNull());
    refuse = true;
    const field = row.querySelector<HTMLTextAreaElement>('form.why textarea')!;
    field.value = 'Wrong price';
    row.querySelector('form.why')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await waitFor(() => expect(said(row)).toBe(FEEDBACK_TEXTS.en.failed));
    expect(api.rated).toHaveLength(2);
    expect(row.querySelector('form.why textarea')).toBe(field);
    expect(field.value).toBe('Wrong price');
    expect(pressed(row)).toEqual({ up: 'false', down: 'true' });
  });

  it('a visitor session that ended is renewed once and the rating sent again', async () => {
    let first = true;
    const api = comeBack(HISTORY, () => {
      const answer = first ? reply(401, { errors: [{ code: 'UNAUTHORIZED' }] }) : reply(200, { data: {} });
      first = false;
      return Promise.resolve(answer);
    });
    const w = mountWidget();
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    thumbs(row).up.click();
    await waitFor(() => expect(said(row)).toBe(FEEDBACK_TEXTS.en.thanks));
    expect(api.rated).toHaveLength(2);
    expect(api.fetch.mock.calls.filter(([url]) => url.endsWith('/visitors'))).toHaveLength(2);
  });

  it('offers the thumbs once the streamed answer arrived whole with its id, not while it streams', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('readable');
    const encode = (events: unknown[]) => new TextEncoder().encode(sse(events));
    let stream!: ReadableStreamDefaultController<Uint8Array>;
    const body = new NodeReadableStream<Uint8Array>({
      start(controller) {
        stream = controller;
      },
    });
    const rated: string[] = [];
    const fetch = jest.fn((url: string, init?: RequestInit) => {
      if (url.endsWith('/stream')) return Promise.resolve(reply(200, {}, { body: body as never }));
      if (url.endsWith('/feedback')) {
        rated.push(`${url.slice(API.length)} ${init!.body as string}`);
        return Promise.resolve(reply(200, { data: {} }));
      }
      return api.fetch(url, init);
    });
    Object.assign(globalThis, { fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(`${API}/conversations/${CONVERSATION}/stream`, expect.anything()),
    );
    stream.enqueue(
      encode([
        { type: 'history', messages: [], sessionId: CONVERSATION },
        { type: 'token', messageId: A1, text: 'Electric bikes cost' },
      ]),
    );
    await waitFor(() => expect(w.answers()).toContain('Electric bikes cost'));
    expect(w.root.querySelector('.rate')).toBeNull();
    stream.enqueue(
      encode([{ type: 'done', messages: [{ _id: A1, type: 'ai', data: { content: ANSWER, answer: 'answer' } }] }]),
    );
    stream.close();
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    thumbs(rowOf(w.root, ANSWER)!).up.click();
    await waitFor(() => expect(rated).toEqual([`${feedbackPath(A1)} {"rating":"up"}`]));
  });

  it('an answer that failed, streamed, offers no thumbs', async () => {
    Object.assign(globalThis, { ReadableStream: NodeReadableStream });
    const api = server('readable');
    const failed = sse([
      { type: 'history', messages: [], sessionId: CONVERSATION },
      {
        type: 'done',
        messages: [{ _id: 'e1', type: 'ai', data: { content: 'Sorry.', type: 'error', answer: 'error' } }],
      },
    ]);
    const fetch = jest.fn((url: string, init?: RequestInit) =>
      url.endsWith('/stream')
        ? Promise.resolve(reply(200, {}, { text: () => Promise.resolve(failed) }))
        : api.fetch(url, init),
    );
    Object.assign(globalThis, { fetch });
    const w = mountWidget();
    w.ask('How much is an electric bike?');
    await waitFor(() => expect(w.answers()).toContain('Sorry.'));
    expect(w.root.querySelector('.rate')).toBeNull();
  });

  it('speaks Spanish, and switches language with the widget', async () => {
    comeBack();
    const w = mountWidget('es');
    await waitFor(() => expect(rowOf(w.root, ANSWER)).not.toBeNull());
    const row = rowOf(w.root, ANSWER)!;
    expect(row.textContent).toContain('¿Te ha sido útil?');
    const { up, down } = thumbs(row, 'es');
    expect([up.getAttribute('aria-label'), down.getAttribute('aria-label')]).toEqual(['Útil', 'No útil']);
    down.click();
    await waitFor(() => expect(said(row)).toBe('Gracias por tu opinión'));
    expect(row.querySelector('form.why label')!.textContent).toBe('¿Qué ha fallado? (opcional)');
    expect(Array.from(row.querySelectorAll('form.why button')).map((b) => b.textContent)).toEqual(['Enviar', 'Omitir']);
    w.panel.setLanguage('en');
    expect(row.textContent).toContain('Was this helpful?');
    expect(thumbs(row).up.title).toBe('Helpful');
    expect(Array.from(row.querySelectorAll('form.why button')).map((b) => b.textContent)).toEqual(['Send', 'Skip']);
  });
});
