import type { Request } from 'express';
import { translateError, type DomainError, type ErrorCode } from '@sparks/core';
import type { ErrorEnvelope } from '@sparks/contracts';
import { requestLanguage } from './language';

export function envelopeFor(req: Request, status: number, error: DomainError): ErrorEnvelope {
  const language = requestLanguage(req);
  return {
    statusCode: status,
    errors: error.details.map((d) => ({
      code: d.code,
      message: translateError(d.code, language, d.params),
      ...(d.field ? { field: d.field } : {}),
    })),
  };
}

export function simpleEnvelope(
  req: Request,
  status: number,
  code: ErrorCode,
  params?: Record<string, string | number>,
): ErrorEnvelope {
  return {
    statusCode: status,
    errors: [{ code, message: translateError(code, requestLanguage(req), params) }],
  };
}
