import type { ErrorCode } from '@sparks/core';

/**
 * The one place where an error code becomes an HTTP status. `DomainError` carries codes only (the
 * libs and the worker do not speak HTTP); the exception filter answers with the status of the
 * error's first code. The `Record<ErrorCode, …>` type makes the table exhaustive: a code added to
 * `libs/core/src/locales/en/errors.json` does not compile until it has a status here.
 */
export const ERROR_STATUS = {
  // 400: the input broke a rule
  INVALID_PARAMS: 400,
  REQUIRED: 400,
  INVALID_CHARACTERS: 400,
  MALFORMED_JSON: 400,
  FILE_REQUIRED: 400,
  EMPTY_FILE: 400,
  USER_EXISTS: 400,
  PASSWORD_NOT_STRONG: 400,
  PASSWORD_MIN: 400,
  RESET_PASSWORD_RULES: 400,
  INVALID_EMAIL: 400,
  INVALID_DOMAIN: 400,
  NOT_VERIFIED: 400,
  WRONG_CREDENTIALS: 400,
  INVALID_CODE: 400,
  ALREADY_VERIFIED: 400,
  INVALID_TOKEN: 400,
  GOOGLE_FAILED: 400,
  EMPTY_MESSAGE: 400,
  TESTS_LIMIT: 400,
  BLANK_NAME: 400,
  INVALID_ORIGIN: 400,
  INVALID_SIGNATURE: 400,
  OVERAGE_CAP_INVALID: 400,
  OVERAGE_CAP_TOO_LOW: 400,
  DELETE_CONFIRMATION_MISMATCH: 400,
  WRONG_PASSWORD: 400,
  LOGIN_CODE_REQUIRED: 400,
  RETENTION_DAYS_INVALID: 400,
  DAILY_LIMIT_INVALID: 400,
  TIME_ZONE_INVALID: 400,
  // 401: who is asking is not known
  UNAUTHORIZED: 401,
  SESSION_EXPIRED: 401,
  VISITOR_TOKEN_INVALID: 401,
  // 402: the plan's limit
  DEPLOYMENT_LIMIT: 402,
  DEPLOYMENT_NOT_INCLUDED: 402,
  SPARK_LIMIT: 402,
  DOCUMENT_SHARING_PLAN: 402,
  INTERACTIONS_EXHAUSTED: 402,
  DOCUMENT_LIMIT: 402,
  DOCUMENT_LIMIT_DETAIL: 402,
  TRIAL_ENDED: 402,
  OUT_OF_INTERACTIONS: 402,
  OVERAGE_NEEDS_PLAN: 402,
  // 403: known, but not allowed
  FORBIDDEN: 403,
  ACCOUNT_INACTIVE: 403,
  ORIGIN_NOT_ALLOWED: 403,
  SITE_KEY_INVALID: 403,
  // 404: nothing there (or not yours: the same answer, so nothing leaks)
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  DEPLOY_TOKEN_INVALID: 404,
  FEATURE_NOT_METERED: 404,
  EXPORT_LINK_INVALID: 404,
  // 409: not in the state the request needs
  NOT_PUBLISHED: 409,
  PLAN_ALREADY_HELD: 409,
  CHECKOUT_EXPIRED: 409,
  PIN_LIMIT: 409,
  CHECKS_LIMIT: 409,
  DELETION_NEEDS_PASSWORD: 409,
  // 408, 413, 415: the upload
  UPLOAD_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  FILE_TOO_LARGE_DETAIL: 413,
  INCORRECT_FORMAT: 415,
  INCORRECT_FORMAT_DETAIL: 415,
  // 429: too often
  TOO_MANY_REQUESTS: 429,
  RESEND_TOO_SOON: 429,
  DEPLOYMENT_DAILY_LIMIT: 429,
  // 5xx: our side or a service behind us
  INTERNAL: 500,
  REPLY_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  PAYMENT_PROVIDER_UNAVAILABLE: 503,
  TEMPORARILY_UNAVAILABLE: 503,
  GOOGLE_NOT_CONFIGURED: 503,
  MICROSOFT_NOT_CONFIGURED: 503,
  UPLOAD_FAILED: 503,
  ASSISTANT_UNAVAILABLE: 503,
  REPLY_TIMEOUT: 504,
} as const satisfies Record<ErrorCode, number>;

/** The HTTP status of an error code (500 for a string that is not one of ours). */
export function statusOf(code: ErrorCode): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

/** The code Nest's own HTTP exceptions are answered with, by status. */
export const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'INVALID_PARAMS',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};
