import type { AnswerRating, ChatMessageView, MessageFeedback } from '@sparks/contracts';
import { isRateableAnswerKind, MAX_FEEDBACK_COMMENT_LENGTH } from '@sparks/contracts/rules';

import { el } from './dom';
import { feedbackText } from './feedback-texts';
import { text, type WidgetLanguage } from './texts';

/** A thumb up; the thumb down is the same, turned round (styles.ts). */
const THUMB =
  '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="M9 21h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.58 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2zM9 9l4.34-4.34L12 10h9v2l-3 7H9V9zM1 9h4v12H1z"/></svg>';

/** What a rating sends: thumbs up or down and, for a rating down, what was wrong. */
export interface Rating {
  rating: AnswerRating;
  comment?: string;
}

/**
 * The answers a visitor rates (issue 35): the Spark's replies once they arrived whole, with their id, when they are
 * answers from the documents or the "not covered" reply (`data.answer`, the answer engine's kind). Not the greeting
 * the widget shows first, small talk or a failure.
 */
export const canRate = (m: Partial<ChatMessageView>): m is ChatMessageView =>
  !!m._id && m.type === 'ai' && isRateableAnswerKind(m.data?.answer) && m.data?.type !== 'error';

/** Each rating row's own relabelling, to switch its language with the widget's. */
const painters = new WeakMap<Element, (language: WidgetLanguage) => void>();

export function relabelRatings(scope: ParentNode, language: WidgetLanguage): void {
  scope.querySelectorAll('.rate').forEach((row) => painters.get(row)?.(language));
}

/**
 * "Was this helpful?" under an answer, with a thumb up and a thumb down (toggle buttons: `aria-pressed` is the
 * visitor's rating, restored from the answer's `feedback`). A rating is sent when chosen (`send`, which fails with
 * the request) and a second one replaces it; a rating down then offers an optional comment, which sends the rating
 * again with it. The outcome is said in the row's polite status; a rating not taken leaves the one before.
 */
export function rateRow(
  language: WidgetLanguage,
  message: Pick<ChatMessageView, '_id' | 'feedback'>,
  send: (rating: Rating) => Promise<unknown>,
): HTMLDivElement {
  let current: MessageFeedback | undefined = message.feedback;
  let pending = false;
  const row = el('div', 'rate');
  row.setAttribute('role', 'group');
  const question = el('span');
  question.id = `sparks-rate-${message._id}`;
  row.setAttribute('aria-labelledby', question.id);
  const thumb = (rating: AnswerRating) => {
    const button = el('button', rating);
    button.type = 'button';
    button.innerHTML = THUMB;
    return button;
  };
  const up = thumb('up');
  const down = thumb('down');
  const status = el('span', 'said');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  row.append(question, up, down, status);

  // The comment box, made when it opens and gone when it closes.
  let box:
    { form: HTMLFormElement; label: HTMLLabelElement; field: HTMLTextAreaElement; buttons: HTMLElement } | undefined;

  const paint = (next: WidgetLanguage) => {
    language = next;
    question.textContent = feedbackText(language, 'question');
    for (const [button, key] of [
      [up, 'up'],
      [down, 'down'],
    ] as const) {
      button.setAttribute('aria-label', feedbackText(language, key));
      button.title = feedbackText(language, key);
    }
    if (box) {
      box.label.textContent = feedbackText(language, 'why');
      const [submit, skip] = box.buttons.children;
      submit.textContent = text(language, 'send');
      skip.textContent = feedbackText(language, 'skip');
    }
  };
  const show = () => {
    up.setAttribute('aria-pressed', String(current?.rating === 'up'));
    down.setAttribute('aria-pressed', String(current?.rating === 'down'));
  };
  painters.set(row, paint);
  paint(language);
  show();

  /** Sends a rating; answers whether it was taken. */
  const rate = async (next: Rating): Promise<boolean> => {
    if (pending) return false;
    pending = true;
    row.setAttribute('aria-busy', 'true');
    let taken = false;
    try {
      await send(next);
      current = { rating: next.rating, comment: next.comment ?? null };
      taken = true;
    } catch {
      // Said below; the rating shown stays the one the server has.
    }
    pending = false;
    row.removeAttribute('aria-busy');
    show();
    status.classList.toggle('err', !taken);
    status.textContent = feedbackText(language, taken ? 'thanks' : 'failed');
    return taken;
  };

  const close = (focus: boolean) => {
    box?.form.remove();
    box = undefined;
    if (focus) down.focus();
  };
  const open = () => {
    if (!box) {
      const form = el('form', 'why');
      const label = el('label');
      const field = el('textarea');
      field.id = label.htmlFor = `sparks-why-${message._id}`;
      field.rows = 2;
      field.maxLength = MAX_FEEDBACK_COMMENT_LENGTH;
      field.dir = 'auto';
      field.value = current?.comment ?? '';
      const actions = el('div');
      const submit = el('button');
      submit.type = 'submit';
      const skip = el('button');
      skip.type = 'button';
      actions.append(submit, skip);
      form.append(label, field, actions);
      row.append(form);
      box = { form, label, field, buttons: actions };
      paint(language);
      skip.addEventListener('click', () => close(true));
      form.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') {
          // The comment box closes, not the whole chat.
          event.stopPropagation();
          close(true);
        } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.target === field) {
          event.preventDefault();
          form.requestSubmit();
        }
      });
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const comment = field.value.trim();
        // Nothing written, and nothing to take back: the rating down already went.
        if (!comment && !current?.comment) return close(true);
        void rate({ rating: 'down', comment: comment || undefined }).then((taken) => taken && close(true));
      });
    }
    box.field.focus();
  };

  up.addEventListener('click', () => {
    if (current?.rating !== 'up') void rate({ rating: 'up' }).then((taken) => taken && close(false));
  });
  // Rated down already: the comment box opens again (sending the rating again would drop its comment).
  down.addEventListener('click', () => {
    if (current?.rating === 'down') open();
    else void rate({ rating: 'down' }).then((taken) => taken && open());
  });
  return row;
}
