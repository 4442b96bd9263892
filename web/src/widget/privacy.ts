import { el } from './dom';
import { privacyText } from './privacy-texts';
import type { WidgetLanguage } from './texts';

export const DELETE_ICON =
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M9 3h6l1 2h4v2H4V5h4l1-2Zm-3 6h12l-1 12H7L6 9Zm4 2v8h1.5v-8H10Zm3.5 0v8H15v-8h-1.5Z"/></svg>';

/**
 * What the visitor is told before their first message (issue 30): the answers are automatic, and the conversation is
 * kept for the Spark's number of days after its last message and can be deleted at any time. The first item of
 * every conversation, under the greeting.
 */
export function noticeItem(language: WidgetLanguage, days: number): HTMLLIElement {
  const item = el('li', 'm notice');
  const body = el('p', 'b');
  body.dir = 'auto';
  body.textContent = privacyText(language, 'notice', days);
  item.append(body);
  return item;
}

/**
 * The question before a conversation is deleted, in the conversation itself: "Delete" runs `remove`, "Cancel" takes
 * the question away. The focus goes to "Cancel", the safe answer.
 */
export function confirmDeletion(language: WidgetLanguage, remove: () => void): HTMLLIElement {
  const item = el('li', 'm note');
  const box = el('div', 'b confirm');
  box.dir = 'auto';
  box.setAttribute('role', 'group');
  const question = el('p');
  question.id = 'sparks-delete-question';
  question.textContent = privacyText(language, 'deleteConfirm');
  box.setAttribute('aria-labelledby', question.id);
  const yes = el('button', 'danger');
  yes.type = 'button';
  yes.textContent = privacyText(language, 'deleteYes');
  const no = el('button', 'plain');
  no.type = 'button';
  no.textContent = privacyText(language, 'deleteNo');
  yes.addEventListener('click', () => {
    item.remove();
    remove();
  });
  no.addEventListener('click', () => item.remove());
  box.append(question, yes, no);
  item.append(box);
  queueMicrotask(() => no.focus());
  return item;
}
