import type en from './locales/en/emails.json';
import type { Language } from './errors';
import { t } from './texts';

export function renderEmail(
  kind: keyof typeof en,
  language: Language,
  params: Record<string, string | number>,
): { subject: string; text: string } {
  return { subject: t(language, `emails.${kind}.subject`, params), text: t(language, `emails.${kind}.text`, params) };
}
