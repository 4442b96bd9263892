import { PASSWORD_MIN } from '@sparks/contracts/rules';
import type { i18n as I18n } from 'i18next';
import type { ChangeEvent, Dispatch, SetStateAction } from 'react';

import { isApiError, type ApiErrorItem } from '../../api/client';

/**
 * A message a form shows: a key of the `auth` catalogue (client-side checks and fixed reactions) or a server
 * error (translated by its code when rendered, so both follow a language switch). Plain text is kept as given.
 */
export type Message = { key: string } | { api: ApiErrorItem } | { text: string };

export type FieldMessages<F extends string> = Partial<Record<F, Message>>;

/** A failed call sorted for a form: messages under their inputs, the rest in the form's alert. */
export interface MappedErrors<F extends string> {
  fields: FieldMessages<F>;
  form: Message[];
  codes: string[];
}

/** The messages without the one of `field`: an input's error goes away as soon as it is edited. */
export function withoutField<F extends string>(messages: FieldMessages<F>, field: F): FieldMessages<F> {
  if (!messages[field]) return messages;
  const rest = { ...messages };
  delete rest[field];
  return rest;
}

/** An input's onChange: keeps the new value and drops the field's error (the user is fixing it). */
export function editing<F extends string>(
  setValue: (value: string) => void,
  setErrors: Dispatch<SetStateAction<FieldMessages<F>>>,
  field: F,
): (event: ChangeEvent<HTMLInputElement>) => void {
  return (event) => {
    setValue(event.target.value);
    setErrors((current) => withoutField(current, field));
  };
}

/** Seconds named in a message such as "Wait 12 s before asking for a new code". */
export function secondsIn(message: string): number | undefined {
  const match = /(\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/**
 * Sorts a failed call's errors: each error whose `field` the form knows (through `fieldMap`, server field →
 * form input) goes under that input, the first one winning; the others go to the form's alert, once per
 * code. Anything that is not an ApiError reads as UNKNOWN.
 */
export function mapApiError<F extends string>(error: unknown, fieldMap: Partial<Record<string, F>>): MappedErrors<F> {
  const items: ApiErrorItem[] = isApiError(error) ? error.errors : [{ code: 'UNKNOWN', message: '' }];
  const mapped: MappedErrors<F> = { fields: {}, form: [], codes: items.map((item) => item.code) };
  const formCodes = new Set<string>();
  for (const item of items) {
    const field = item.field ? fieldMap[item.field] : undefined;
    if (field) {
      mapped.fields[field] ??= { api: item };
    } else if (!formCodes.has(item.code)) {
      formCodes.add(item.code);
      mapped.form.push({ api: item });
    }
  }
  return mapped;
}

/**
 * The text of a message in the current language. A server error reads the catalogue's `auth:errors.<CODE>`
 * and falls back to the server's own message (already in the request's language).
 */
export function messageTextFor(i18n: I18n): (message: Message) => string {
  const t = i18n.t.bind(i18n) as unknown as (key: string, options?: Record<string, unknown>) => string;
  return (message) => {
    if ('text' in message) return message.text;
    if ('key' in message) return t(`auth:${message.key}`, { min: PASSWORD_MIN });
    const { code, message: serverText } = message.api;
    const key = `auth:errors.${code}`;
    if (!i18n.exists(key)) return serverText || t('auth:errors.UNKNOWN');
    return t(key, { min: PASSWORD_MIN, seconds: secondsIn(serverText) ?? 30 });
  };
}
