import { el, HttpError } from './dom';
import { text, type WidgetLanguage } from './texts';

/**
 * The form a visitor leaves an e-mail in when the Spark cannot answer: `send` posts it, `saved` runs once it was
 * taken (the form goes). A refusal is said in the form, so the visitor can correct it and send it again; `n` makes
 * its ids unique (a conversation can offer the form more than once).
 */
export function contactItem(
  language: WidgetLanguage,
  n: number,
  send: (email: string) => Promise<unknown>,
  saved: () => void,
): { item: HTMLLIElement; input: HTMLInputElement } {
  const contact = el('form', 'contact');
  const label = el('label');
  const input = el('input');
  input.type = 'email';
  input.required = true;
  input.autocomplete = 'email';
  label.append(text(language, 'email'), input);
  const submit = el('button');
  submit.type = 'submit';
  submit.textContent = text(language, 'leaveEmail');
  const problem = el('p', 'problem');
  problem.setAttribute('role', 'alert');
  problem.id = `sparks-contact-problem-${n}`;
  contact.append(label, problem, submit);
  const item = el('li', 'm note');
  contact.addEventListener('submit', (event) => {
    event.preventDefault();
    void send(input.value)
      .then(() => {
        item.remove();
        saved();
      })
      .catch((error: unknown) => {
        const status = error instanceof HttpError ? error.status : 0;
        problem.textContent =
          status === 400
            ? text(language, 'emailInvalid')
            : status === 429
              ? text(language, 'tooMany', { seconds: (error as HttpError).retryAfter || 60 })
              : text(language, 'emailFailed');
        if (status === 400) {
          input.setAttribute('aria-invalid', 'true');
          input.setAttribute('aria-describedby', problem.id);
        }
        input.focus();
      });
  });
  input.addEventListener('input', () => {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  });
  item.append(contact);
  return { item, input };
}
