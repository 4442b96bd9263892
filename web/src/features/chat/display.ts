import type { WidgetType } from '@sparks/contracts';
import { isStartKeyword } from '@sparks/contracts/rules';
import { isWidgetType } from '@sparks/contracts/widgets';

import { toLanguage, type Language } from '../../i18n';
import { localized } from './localized';
import type { ChatMessage } from './types';

/** docs/product.md §4 message display rules, as pure functions of the conversation. */

/** docs/product.md §9: an assistant message waits 800 ms per earlier message of its reply, when it is fresh. */
const REVEAL_STEP_MS = 800;
/** A message older than this is history: it shows at once. */
const FRESH_MS = 1000;

/** 'inicio', 'inicio en {language}', 'start in {language}' (any case): the hidden start keyword (one rule with the server). */
export { isStartKeyword };
export type { WidgetType };

/** docs/product.md §4: on /deploy, an assistant message older than this brings a fresh welcome. */
export const DEPLOY_WELCOME_REFRESH_MS = 24 * 3600 * 1000;

/**
 * Whether the assistant last spoke more than `maxAgeMs` ago (its newest `ai` message, by date): the
 * conversation then starts over with a fresh welcome. A conversation without one is not stale (the
 * start keyword greets it anyway), nor is one whose newest message has no readable date.
 */
export function isStale(messages: ChatMessage[], maxAgeMs: number, now: number = Date.now()): boolean {
  const last = messages.filter((m) => m.type === 'ai').at(-1);
  const at = last?.createdAt ? Date.parse(String(last.createdAt)) : NaN;
  return Number.isFinite(at) && now - at > maxAgeMs;
}

/** An action message that announces something (a Spark or a test created): never shown. */
export function isEventMessage(message: ChatMessage): boolean {
  return message.data?.type === 'event';
}

interface ItemBase {
  key: string;
  message: ChatMessage;
  date: Date;
  showDate: boolean;
}

export type DisplayItem =
  /** `verdict`: the test-feedback keyword, shown as a sentence in the reader's language. */
  | (ItemBase & { kind: 'human'; content: string; verdict?: boolean })
  /** "You uploaded {document}". */
  | (ItemBase & { kind: 'upload'; name: string })
  | (ItemBase & { kind: 'assistant'; content: string; variant: 'text' | 'document' | 'error' })
  /** `chosen`: what the human answered to this widget (a choice's value or label), to mark it. */
  | (ItemBase & { kind: 'widget'; widget: WidgetType; interactive: boolean; chosen?: string });

type ItemDraft =
  | { kind: 'human'; key: string; message: ChatMessage; date: Date; content: string; verdict?: boolean }
  | { kind: 'upload'; key: string; message: ChatMessage; date: Date; name: string }
  | {
      kind: 'assistant';
      key: string;
      message: ChatMessage;
      date: Date;
      content: string;
      variant: 'text' | 'document' | 'error';
    }
  | { kind: 'widget'; key: string; message: ChatMessage; date: Date; widget: WidgetType; chosen?: string };

function parseDate(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Each message's date: its own, else the nearest earlier message's, else now. */
export function messageDates(messages: ChatMessage[], now: Date = new Date()): Date[] {
  let last: Date | null = null;
  return messages.map((message) => {
    const own = parseDate(message.createdAt);
    if (own) last = own;
    return own ?? last ?? now;
  });
}

const contentOf = (message: ChatMessage) => (typeof message.data?.content === 'string' ? message.data.content : '');
const isDocument = (message: ChatMessage | undefined) => message?.data?.type === 'document';
const stringField = (message: ChatMessage | undefined, field: string) => {
  const value = message?.data?.[field];
  return typeof value === 'string' ? value : '';
};

/**
 * The test page's verdict sent into the builder chat ('test satisfactory' / 'test not satisfactory', a keyword
 * of the flow in every language): true / false, else undefined. The chat shows it as a sentence in the reader's
 * language (issue 18 item 14: Spanish users read English otherwise).
 */
function testVerdict(content: string): boolean | undefined {
  const text = content.trim().toLowerCase();
  if (text === 'test satisfactory') return true;
  if (text === 'test not satisfactory') return false;
  return undefined;
}

/** The label of the choice a value belongs to, in the widget a human message answers. */
function choiceLabel(widget: ChatMessage | undefined, value: string): string | undefined {
  if (!widget) return undefined;
  const type = widget.data?.type;
  if (type !== 'options' && type !== 'buttons' && type !== 'onboarding') return undefined;
  const choices = widget.data[type];
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices as unknown[]) {
    if (!choice || typeof choice !== 'object') continue;
    const { label, value: own } = choice as { label?: unknown; value?: unknown };
    const text = typeof own === 'string' || typeof own === 'number' ? String(own) : undefined;
    if (typeof label === 'string' && label && text === value) return label;
  }
  return undefined;
}

/**
 * What the chat shows for a conversation (docs/product.md §4):
 * - a human message whose content is empty or a start keyword is hidden — except an empty one marked as
 *   a document or followed by an ai document message, which is a "you uploaded {document}" bubble;
 * - an ai message of type document is that bubble too (unless its upload already shows one), followed by
 *   what was read; any other non-empty ai message is a markdown bubble;
 * - an action message is a widget when its type is known; events and unknown types are skipped;
 * - the date shows on human messages, on the last message, and before a human message;
 * - only the last message's widget can be used, older ones show disabled, with the choice the human answered
 *   marked (`chosen`);
 * - a human message that is the value of a choice of the widget just before it shows that choice's label
 *   (the assistant gets `sell`, the person reads "Sell products");
 * - given the interface's `language`, widgets, cards and the engine's texts read in it (their `i18n`, issue 34
 *   item 3), and so do the labels of the choices picked.
 */
export function toDisplayItems(messages: ChatMessage[], now: Date = new Date(), language?: Language): DisplayItem[] {
  const dates = messageDates(messages, now);
  const drafts: ItemDraft[] = [];
  const uploaded = new Set<string>();
  let previousWasUpload = false;
  let lastWidget: ChatMessage | undefined;
  let lastWidgetDraft: Extract<ItemDraft, { kind: 'widget' }> | undefined;

  messages.forEach((original, index) => {
    // Widgets, cards and the engine's own texts read in the interface's language (issue 34 item 3).
    const message = language ? localized(original, language) : original;
    const date = dates[index];
    const content = contentOf(message);
    const next = messages[index + 1];
    const key = message._id || `message-${index}`;
    const wasUpload = previousWasUpload;
    previousWasUpload = false;

    switch (message.type) {
      case 'human': {
        if (content.trim() === '') {
          const nextIsReadDocument = next?.type === 'ai' && isDocument(next);
          if (!isDocument(message) && !nextIsReadDocument) return;
          const documentId = stringField(message, 'documentId') || stringField(next, 'documentId');
          const name = stringField(message, 'name') || (nextIsReadDocument ? stringField(next, 'name') : '');
          if (documentId) uploaded.add(documentId);
          drafts.push({ kind: 'upload', key, message, date, name });
          previousWasUpload = true;
          return;
        }
        if (isStartKeyword(content)) return;
        const answered = choiceLabel(lastWidget, content.trim());
        if (lastWidgetDraft) lastWidgetDraft.chosen = content.trim();
        lastWidget = undefined;
        lastWidgetDraft = undefined;
        const verdict = testVerdict(content);
        drafts.push({
          kind: 'human',
          key,
          message,
          date,
          content: answered ?? content,
          ...(verdict === undefined ? {} : { verdict }),
        });
        return;
      }
      case 'ai': {
        if (isDocument(message)) {
          const documentId = stringField(message, 'documentId');
          const shown = wasUpload || (documentId !== '' && uploaded.has(documentId));
          if (!shown) {
            if (documentId) uploaded.add(documentId);
            drafts.push({ kind: 'upload', key: `${key}:upload`, message, date, name: stringField(message, 'name') });
          }
          if (content.trim()) drafts.push({ kind: 'assistant', key, message, date, content, variant: 'document' });
          return;
        }
        if (content.trim() === '') return;
        const variant = message.data?.type === 'error' ? 'error' : 'text';
        drafts.push({ kind: 'assistant', key, message, date, content, variant });
        return;
      }
      case 'action': {
        const type = message.data?.type;
        if (isWidgetType(type)) {
          const draft: Extract<ItemDraft, { kind: 'widget' }> = {
            kind: 'widget',
            key,
            message,
            date,
            widget: type,
          };
          drafts.push(draft);
          lastWidget = message;
          lastWidgetDraft = draft;
        }
        return;
      }
      default:
        return;
    }
  });

  // The widgets of the assistant's last reply can be used: all of them, not only the very last one (issue 18:
  // "Undo" after new instructions came in the same reply as the next question, and was disabled at once).
  const lastHuman = drafts.findLastIndex((draft) => draft.kind === 'human' || draft.kind === 'upload');
  return drafts.map((draft, index): DisplayItem => {
    const next = drafts[index + 1];
    const last = index === drafts.length - 1;
    const human = draft.kind === 'human' || draft.kind === 'upload';
    const nextHuman = next?.kind === 'human' || next?.kind === 'upload';
    const showDate = human || last || nextHuman;
    if (draft.kind === 'widget') return { ...draft, showDate, interactive: index > lastHuman };
    return { ...draft, showDate };
  });
}

/** The document a message is about ("You uploaded …"), or '' when it names none. */
export function documentIdOf(message: { data?: Record<string, unknown> | null }): string {
  const id = message.data?.documentId;
  return typeof id === 'string' ? id : '';
}

/** The messages of a reply that take a turn when revealed (what the chat shows of the assistant). */
export function isRevealed(message: ChatMessage): boolean {
  if (message.type === 'ai') return isDocument(message) || contentOf(message).trim() !== '';
  if (message.type === 'action') return isWidgetType(message.data?.type);
  return false;
}

/** docs/product.md §4/§9: the n-th message of a reply (from 0) shows after n × 800 ms, unless older than 1 s. */
export function revealDelay(n: number, createdAt: string | undefined, now: number = Date.now()): number {
  const created = parseDate(createdAt);
  if (!created || now - created.getTime() > FRESH_MS) return 0;
  return Math.max(0, n) * REVEAL_STEP_MS;
}

export interface DateLabel {
  /** Today, Yesterday or another day (shown as day/month). */
  day: 'today' | 'yesterday' | 'other';
  /** dd/mm */
  dayMonth: string;
  /** The time in the language's format. */
  time: string;
}

const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/** docs/product.md §4: Today / Yesterday plus the time, otherwise day/month plus the time (local time). */
export function describeDate(date: Date, now: Date, language: string): DateLabel {
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  const time = new Intl.DateTimeFormat(toLanguage(language) === 'es' ? 'es-ES' : 'en-US', {
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    day: days === 0 ? 'today' : days === 1 ? 'yesterday' : 'other',
    dayMonth: `${pad(date.getDate())}/${pad(date.getMonth() + 1)}`,
    time,
  };
}

/**
 * docs/product.md §9: how many characters of an uploaded document's name fit — about 40% of the window width divided
 * by 10 from 1160 px, 20% below that and 14% on phones (below 600 px); 30 when the width is unknown. Never
 * fewer than 8, so that a name stays recognisable.
 */
export function documentNameLimit(width: number | undefined): number {
  if (!width || !Number.isFinite(width) || width <= 0) return 30;
  const share = width >= 1160 ? 0.4 : width >= 600 ? 0.2 : 0.14;
  return Math.max(8, Math.floor((width * share) / 10));
}

/** A name cut to `limit` characters plus an ellipsis when longer. */
export function cutName(name: string, limit: number): string {
  const chars = [...name];
  return chars.length > limit ? `${chars.slice(0, limit).join('')}…` : name;
}
