import en from './locales/en/emails.json';
import es from './locales/es/emails.json';
import type { Language } from './errors';

type Templates = typeof en;
const catalogues: Record<Language, Templates> = { en, es };

const fill = (s: string, p: Record<string, string | number>) =>
  s.replace(/\{(\w+)\}/g, (m, k: string) => (p[k] !== undefined ? String(p[k]) : m));

export function renderEmail(
  kind: keyof Templates,
  language: Language,
  params: Record<string, string | number>,
): { subject: string; text: string } {
  const t = catalogues[language][kind];
  return { subject: fill(t.subject, params), text: fill(t.text, params) };
}
