import type { Request } from 'express';
import { pickLanguage, type Language } from '@sparks/core';

function cookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * The language of the person making the request: the signed-in user's setting, else the SPA's
 * language cookie, else Accept-Language, else English.
 */
export function requestLanguage(req: Request): Language {
  const user = (req as Request & { user?: { language?: string } }).user;
  return pickLanguage(user?.language, cookie(req, 'i18nextLng'), req.headers['accept-language']);
}
