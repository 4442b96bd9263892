import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@sparks/contracts';
import en from './locales/en/errors.json';
import { t } from './texts';

/** The languages are declared once, in `@sparks/contracts` (rules.ts). */
export { FALLBACK_LANGUAGE, isLanguage, type Language };

export type ErrorCode = keyof typeof en;
/** Every error code, in the order of the English catalogue. */
export const ERROR_CODES = Object.keys(en) as ErrorCode[];

/** Picks the first supported language out of an Accept-Language header or a stored value. */
export function pickLanguage(...candidates: Array<string | undefined | null>): Language {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(',')) {
      const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2);
      if (isLanguage(tag)) return tag;
    }
  }
  return FALLBACK_LANGUAGE;
}

export function translateError(
  code: ErrorCode,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  return t(language, `errors.${code}`, params);
}

export interface ErrorDetail {
  code: ErrorCode;
  field?: string;
  params?: Record<string, string | number>;
}

/**
 * A rule of the product was broken. Carries one or more codes (the first is the error's `code`),
 * never a transport status: the libs and the worker do not speak HTTP. The api's exception filter
 * turns it into the error envelope in the caller's language, its status looked up by code in
 * `api/src/common/error-status.ts`.
 */
export class DomainError extends Error {
  readonly details: ErrorDetail[];

  constructor(details: ErrorDetail | ErrorDetail[]) {
    const list = Array.isArray(details) ? details : [details];
    if (list.length === 0) throw new TypeError('A DomainError needs at least one code');
    super(list.map((d) => d.code).join(','));
    this.details = list;
  }

  /** The code that decides how the error is answered (the first detail's). */
  get code(): ErrorCode {
    return this.details[0].code;
  }

  static of(code: ErrorCode, params?: ErrorDetail['params'], field?: string): DomainError {
    return new DomainError({ code, field, params });
  }

  /** Input broke a rule: `code` names the rule, `field` the input. */
  static invalid(code: ErrorCode, field?: string, params?: ErrorDetail['params']): DomainError {
    return new DomainError({ code, field, params });
  }

  static notFound(code: ErrorCode = 'NOT_FOUND'): DomainError {
    return new DomainError({ code });
  }
}
