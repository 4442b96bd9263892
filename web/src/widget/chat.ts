/**
 * The website widget's chat UI (`/widget/chat.js`, ≤ 60 KB gzipped), loaded by the loader into its
 * shadow root. Built from the chat's small shared pieces (the SSE reader, the link allow-list) with no
 * framework: a dialog with the Spark's greeting, the visitor's conversation (its id and the visitor
 * token kept per Spark in the host page's storage), streamed answers rendered as safe markdown, a
 * "new conversation" action, and (issue 30) the notice that answers are automatic and how long the conversation is
 * kept, before the first message, and the visitor's own "delete this conversation", and (issue 35) a thumb up or down
 * under each answer (feedback.ts). Keyboard: Enter sends, Shift+Enter breaks the line, Escape closes.
 * Screen readers: a hidden log announces only the newest complete message.
 */
import type { ChatMessageView } from '@sparks/contracts';
import { MAX_MESSAGE_LENGTH, MESSAGE_LENGTH_SHOWN_FROM } from '@sparks/contracts/rules';

import { readErrors } from '../chat-core/errors';
import { isStreamEvent, readEventStream, readEventText } from '../chat-core/sse';
import { addToken, type Streamed } from '../chat-core/stream';
import { renderMarkdown } from './markdown';
import { contactItem } from './contact';
import { el, HttpError, storage } from './dom';
import { canRate, rateRow, relabelRatings } from './feedback';
import { confirmDeletion, DELETE_ICON, noticeItem } from './privacy';
import { privacyText } from './privacy-texts';
import { CSS, FULL_SCREEN } from './styles';
import { text, type TextKey, type WidgetLanguage } from './texts';
import type { ChatPanel, MountOptions } from './types';

type WireMessage = ChatMessageView;
/** An answer as it ends: the stored message, or only its text (a stream that ended without it). */
type Answer = Partial<WireMessage> & Pick<WireMessage, 'data'>;

const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z"/></svg>';
const NEW_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z"/></svg>';

/** The panel covers the whole window (styles.ts): it is then modal, and Tab stays inside it. */
const fullScreen = () => typeof window.matchMedia === 'function' && window.matchMedia(FULL_SCREEN).matches;

function mount(o: MountOptions): ChatPanel {
  const { root, api, base, config } = o;
  let language: WidgetLanguage = o.language;
  const store = storage(`sparks-widget:${config.sparkId}`, (value) => showRemover(value.c));
  let busy = false;

  const style = el('style');
  style.textContent = CSS;
  const panel = el('section', `p ${config.position === 'left' ? 'left' : 'right'}`);
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-modal', 'false');
  panel.setAttribute('aria-labelledby', 'sparks-title');
  panel.hidden = true;
  panel.style.setProperty('--p', config.theme.primary);
  panel.style.setProperty('--s', config.theme.secondary);

  const header = el('header');
  const title = el('h2');
  title.id = 'sparks-title';
  title.textContent = config.name;
  const renew = el('button', 'icon');
  renew.type = 'button';
  renew.innerHTML = NEW_ICON;
  // Shown while this browser has a conversation with the Spark: the visitor deletes it (theirs only, on the server).
  const remover = el('button', 'icon');
  remover.type = 'button';
  remover.innerHTML = DELETE_ICON;
  function showRemover(conversationId: string | undefined) {
    remover.hidden = !conversationId;
  }
  showRemover(store.read().c);
  const closer = el('button', 'icon');
  closer.type = 'button';
  closer.innerHTML = CLOSE_ICON;
  header.append(title, remover, renew, closer);

  const list = el('ol', 'log');
  const announcer = el('div', 'sr');
  announcer.setAttribute('role', 'log');
  announcer.setAttribute('aria-live', 'polite');
  announcer.setAttribute('aria-relevant', 'additions');

  const form = el('form', 'composer');
  const field = el('textarea');
  field.id = 'sparks-input';
  field.rows = 1;
  field.maxLength = MAX_MESSAGE_LENGTH;
  field.dir = 'auto';
  const fieldLabel = el('label', 'sr');
  fieldLabel.htmlFor = 'sparks-input';
  const send = el('button', 'send');
  send.type = 'submit';
  // Near the longest message, how long it is; at it (typed or pasted: the box keeps the first characters), that the
  // rest was not taken.
  const length = el('p', 'count');
  length.setAttribute('role', 'status');
  length.hidden = true;
  const showLength = () => {
    const count = field.value.length;
    const number = (n: number) => n.toLocaleString(language);
    length.hidden = count < MESSAGE_LENGTH_SHOWN_FROM;
    length.classList.toggle('full', count >= MAX_MESSAGE_LENGTH);
    length.textContent = length.hidden
      ? ''
      : count >= MAX_MESSAGE_LENGTH
        ? text(language, 'limit', { max: number(MAX_MESSAGE_LENGTH) })
        : text(language, 'count', { count: number(count), max: number(MAX_MESSAGE_LENGTH) });
  };
  field.addEventListener('input', showLength);
  form.append(length, fieldLabel, field, send);
  panel.append(header, list, announcer, form);
  root.append(style, panel);

  const labels = () => {
    renew.setAttribute('aria-label', text(language, 'newConversation'));
    renew.title = text(language, 'newConversation');
    remover.setAttribute('aria-label', privacyText(language, 'deleteConversation'));
    remover.title = privacyText(language, 'deleteConversation');
    closer.setAttribute('aria-label', text(language, 'close'));
    list.setAttribute('aria-label', text(language, 'messages'));
    fieldLabel.textContent = text(language, 'placeholder');
    field.placeholder = text(language, 'placeholder');
    send.textContent = text(language, 'send');
  };
  labels();

  const announce = (message: string) => {
    announcer.replaceChildren();
    const line = el('p');
    line.textContent = message;
    announcer.append(line);
  };

  const bubble = (who: 'human' | 'ai' | 'note', content: string, markdown = false) => {
    const item = el('li', `m ${who}`);
    const body = el('div', 'b');
    // Each message in its own direction: a visitor's Arabic or Hebrew reads right to left.
    body.dir = 'auto';
    if (markdown) body.append(renderMarkdown(content, base));
    else body.textContent = content;
    item.append(body);
    list.append(item);
    list.scrollTop = list.scrollHeight;
    return { item, body };
  };

  const greet = () => {
    list.replaceChildren();
    if (config.initialMessage) bubble('ai', config.initialMessage, true);
    list.append(noticeItem(language, config.retentionDays));
  };

  const request = async (path: string, init: RequestInit = {}, auth = true): Promise<Response> => {
    const headers: Record<string, string> = { 'Accept-Language': language };
    if (init.body) headers['Content-Type'] = 'application/json';
    const token = store.read().v;
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`${api}${path}`, { ...init, headers });
    if (!res.ok) {
      const errors = await readErrors(res);
      throw new HttpError(res.status, Number(res.headers.get('Retry-After') ?? 0), errors[0]?.code);
    }
    return res;
  };

  /** A visitor token for this browser: the previous one renews the same visitor. */
  const session = async () => {
    const previous = store.read().v;
    const res = await request('/visitors', { method: 'POST', body: JSON.stringify({ visitorToken: previous }) }, false);
    const { data } = (await res.json()) as { data: { visitorToken: string } };
    const next = { ...store.read(), v: data.visitorToken };
    if (previous && previous !== data.visitorToken && !next.c) delete next.c;
    store.write(next);
  };

  const conversation = async (): Promise<string> => {
    const known = store.read().c;
    if (known) return known;
    const res = await request('/conversations', { method: 'POST' });
    const { data } = (await res.json()) as { data: { conversationId: string } };
    store.write({ ...store.read(), c: data.conversationId });
    return data.conversationId;
  };

  let ready: Promise<void> | undefined;
  const start = () =>
    (ready ??= (async () => {
      greet();
      await session();
      const known = store.read().c;
      if (!known) return;
      try {
        const res = await request(`/conversations/${known}`);
        const { data } = (await res.json()) as { data: { messages: WireMessage[] } };
        for (const m of data.messages) {
          if (m.type === 'human') bubble('human', m.data.content);
          else if (m.type === 'ai') rateable(bubble('ai', m.data.content, true).item, known, m);
        }
        // The page went away while an answer was on its way: it is read back, not asked again.
        const pending = store.read().q;
        const last = data.messages.filter((m) => m.type !== 'action').at(-1);
        if (pending && last?.type === 'human' && last.data.content === pending) resume(known, pending);
        else if (pending) forget();
      } catch (error) {
        // Gone, or not this visitor's: start afresh. Anything else (429, offline) keeps the conversation.
        const status = error instanceof HttpError ? error.status : 0;
        if (status === 401 || status === 404) store.write({ ...store.read(), c: undefined });
      }
    })().catch(() => {
      ready = undefined;
    }));

  const forget = () => store.write({ ...store.read(), q: undefined });

  const say = (message: string) => {
    bubble('note', message);
    announce(message);
  };
  const note = (key: TextKey, params: Record<string, number> = {}) => say(text(language, key, params));

  let contactForms = 0;
  const offerContact = () => {
    contactForms += 1;
    const { item, input } = contactItem(
      language,
      contactForms,
      (email) =>
        request('/contact', { method: 'POST', body: JSON.stringify({ email, conversationId: store.read().c }) }),
      () => note('emailSaved'),
    );
    list.append(item);
    input.focus();
  };

  /** A request that renews the visitor's session once when it has ended (401). */
  const renewing = async (path: string, init: RequestInit) => {
    try {
      return await request(path, init);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 401) throw error;
      await session();
      return request(path, init);
    }
  };

  /** Under an answer of conversation `id` the visitor may rate, the thumbs up and down. */
  const rateable = (item: HTMLElement, id: string, m: Answer) => {
    if (!canRate(m)) return;
    const path = `/conversations/${id}/messages/${m._id}/feedback`;
    item.append(rateRow(language, m, (rating) => renewing(path, { method: 'POST', body: JSON.stringify(rating) })));
    list.scrollTop = list.scrollHeight;
  };

  const finish = (reply: { item: HTMLElement; body: HTMLElement }, id: string, answer: Answer) => {
    reply.body.replaceChildren(renderMarkdown(answer.data.content, base));
    rateable(reply.item, id, answer);
    announce(answer.data.content);
  };

  /**
   * A stream cut before its end (the network, a proxy, an api replica stopping): the api kept the question
   * and a worker answers it all the same, so the answer is read back from the conversation, never asked
   * again. Tried for about half a minute.
   */
  const readBack = async (id: string, question: string): Promise<WireMessage | undefined> => {
    for (const wait of [1000, 2000, 4000, 8000, 15000]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        const res = await request(`/conversations/${id}`);
        const { messages } = ((await res.json()) as { data: { messages: WireMessage[] } }).data;
        const [before, last] = messages.slice(-2);
        if (last?.type === 'ai' && before?.type === 'human' && before.data.content === question) return last;
      } catch {
        // Not there yet, or the network is still away: the next try.
      }
    }
    return undefined;
  };

  /** The answer to a question asked before a reload, read back as a cut stream's is; nothing is sent meanwhile. */
  const resume = (id: string, question: string) => {
    busy = true;
    send.disabled = true;
    const reply = bubble('ai', text(language, 'thinking'));
    reply.item.setAttribute('aria-busy', 'true');
    void readBack(id, question)
      .then((answer) => {
        reply.item.removeAttribute('aria-busy');
        if (answer !== undefined) finish(reply, id, answer);
        else {
          reply.item.remove();
          note('failed');
        }
      })
      .finally(() => {
        forget();
        busy = false;
        send.disabled = false;
      });
  };

  /**
   * Streams the answer. A browser that cannot read a response as it arrives asks the JSON route
   * instead, decided before sending: the api keeps every message it accepts, so a question is never
   * sent twice (a stream answered without a readable body is read whole, not asked again).
   * Answers whether the question stays in the conversation: one the api did not take (offline, too many, a
   * conversation that could not be started) goes back to the box, as in the app's chat.
   */
  const ask = async (question: string, retried = false): Promise<boolean> => {
    const reply = bubble('ai', text(language, 'thinking'));
    reply.item.setAttribute('aria-busy', 'true');
    let taken = false;
    try {
      const id = await conversation();
      store.write({ ...store.read(), q: question });
      const body = JSON.stringify({ text: question });
      let streamed: Streamed = { text: '' };
      let final: Answer | undefined;
      let failed = false;
      if (typeof ReadableStream === 'function') {
        const res = await request(`/conversations/${id}/stream`, { method: 'POST', body });
        taken = true;
        const onEvent = (e: unknown) => {
          if (!isStreamEvent(e)) return;
          if (e.type === 'token' && e.text) {
            streamed = addToken(streamed, e.messageId, e.text);
            reply.body.textContent = streamed.text;
            list.scrollTop = list.scrollHeight;
          } else if (e.type === 'done') {
            final = [...(e.messages ?? [])].reverse().find((m) => m.type === 'ai') ?? {
              data: { content: streamed.text },
            };
          } else if (e.type === 'error') {
            failed = true;
          }
        };
        if (res.body) {
          try {
            await readEventStream(res.body, onEvent);
          } catch {
            // Cut while reading: the question was accepted, so the answer is read back below.
          }
        } else readEventText(await res.text(), onEvent);
      } else {
        const json = await request(`/conversations/${id}/messages`, { method: 'POST', body });
        taken = true;
        final = ((await json.json()) as { data: { ai: WireMessage | null } }).data.ai ?? undefined;
      }
      if (final === undefined && !failed) final = await readBack(id, question);
      forget();
      reply.item.removeAttribute('aria-busy');
      if (final !== undefined && !failed) finish(reply, id, final);
      else {
        reply.item.remove();
        note('failed');
      }
      return true;
    } catch (error) {
      forget();
      reply.item.remove();
      const status = error instanceof HttpError ? error.status : 0;
      if (!taken && !retried && (status === 401 || status === 404)) {
        try {
          if (status === 401) await session();
          else store.write({ ...store.read(), c: undefined });
          return await ask(question, true);
        } catch {
          // No new visitor session (offline, too many): said below like any question not taken.
        }
      }
      // Out of interactions, or past the owner's daily limit: the same polite words and the e-mail form.
      if (status === 402 || (error as HttpError).code === 'DEPLOYMENT_DAILY_LIMIT') {
        note(status === 402 ? 'outOfInteractions' : 'dailyLimit');
        offerContact();
        return true;
      }
      if (status === 429) note('tooMany', { seconds: (error as HttpError).retryAfter || 60 });
      else note('failed');
      return taken;
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = field.value.trim();
    if (!question || busy) return;
    busy = true;
    send.disabled = true;
    field.value = '';
    showLength();
    const mine = bubble('human', question);
    void start()
      .then(() => ask(question))
      .then((kept) => {
        if (kept) return;
        mine.item.remove();
        if (!field.value.trim()) field.value = question;
        showLength();
      })
      .finally(() => {
        busy = false;
        send.disabled = false;
        // The e-mail form offered when the Spark cannot answer keeps the focus it took.
        if (!root.activeElement?.closest('.contact')) field.focus();
      });
  });
  field.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      o.onClose();
    }
    // Full screen, the page behind is hidden: Tab and Shift+Tab go round the panel instead of into it.
    if (event.key === 'Tab' && fullScreen()) {
      const stops = Array.from(
        panel.querySelectorAll<HTMLElement>(
          'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), a[href]',
        ),
      ).filter((node) => !node.closest('[hidden]'));
      const first = stops[0];
      const last = stops.at(-1);
      const active = root.activeElement;
      if (event.shiftKey && active === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  });
  closer.addEventListener('click', () => o.onClose());
  /** The visitor's own conversation goes on the server (one already gone counts as gone), and the chat starts afresh. */
  const removeConversation = async (id: string, retried = false): Promise<void> => {
    busy = true;
    send.disabled = true;
    try {
      await request(`/conversations/${id}`, { method: 'DELETE' });
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 0;
      if (status === 401 && !retried) {
        busy = false;
        await session().then(
          () => removeConversation(id, true),
          () => say(privacyText(language, 'deleteFailed')),
        );
        return;
      }
      if (status !== 404) {
        if (status === 429) note('tooMany', { seconds: (error as HttpError).retryAfter || 60 });
        else say(privacyText(language, 'deleteFailed'));
        return;
      }
    } finally {
      busy = false;
      send.disabled = false;
    }
    store.write({ ...store.read(), c: undefined, q: undefined });
    greet();
    say(privacyText(language, 'deleted'));
    field.focus();
  };
  remover.addEventListener('click', () => {
    const id = store.read().c;
    if (!id || busy || list.querySelector('.confirm')) return;
    list.append(confirmDeletion(language, () => void removeConversation(id)));
    list.scrollTop = list.scrollHeight;
  });
  renew.addEventListener('click', () => {
    store.write({ ...store.read(), c: undefined });
    greet();
    field.focus();
  });

  return {
    open() {
      panel.setAttribute('aria-modal', String(fullScreen()));
      panel.hidden = false;
      void start();
      field.focus();
    },
    close() {
      panel.hidden = true;
    },
    setLanguage(next) {
      language = next;
      labels();
      showLength();
      relabelRatings(list, language);
    },
  };
}

window.__sparksChat = { mount };
