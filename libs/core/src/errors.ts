import en from './locales/en/errors.json';
import es from './locales/es/errors.json';

export type Language = 'en' | 'es';
export const LANGUAGES: readonly Language[] = ['en', 'es'];
export const FALLBACK_LANGUAGE: Language = 'en';

export type ErrorCode = keyof typeof en;

const catalogues: Record<Language, Record<ErrorCode, string>> = { en, es };

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'es';
}

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
  const template = catalogues[language][code] ?? catalogues[FALLBACK_LANGUAGE][code] ?? code;
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (params[key] !== undefined ? String(params[key]) : m));
}

export interface ErrorDetail {
  code: ErrorCode;
  field?: string;
  params?: Record<string, string | number>;
}

/**
 * A rule of the product was broken. Carries its HTTP status and one or more codes; the api's
 * exception filter turns it into the error envelope in the caller's language.
 */
export class DomainError extends Error {
  readonly details: ErrorDetail[];

  constructor(
    readonly status: number,
    details: ErrorDetail | ErrorDetail[],
  ) {
    const list = Array.isArray(details) ? details : [details];
    super(list.map((d) => d.code).join(','));
    this.details = list;
  }

  static badRequest(code: ErrorCode, field?: string, params?: ErrorDetail['params']): DomainError {
    return new DomainError(400, { code, field, params });
  }

  static notFound(code: ErrorCode = 'NOT_FOUND'): DomainError {
    return new DomainError(404, { code });
  }
}
