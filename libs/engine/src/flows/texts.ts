/** The engine's own texts (locales/<lang>/flows.json) and how values are put into them. */

import { escapeMarkdown } from '@sparks/contracts';
import en from '../locales/en/flows.json';
import es from '../locales/es/flows.json';
import type { I18n, Lang } from './types';

export type FlowTextKey = keyof typeof en;
const catalogues: Record<Lang, Record<FlowTextKey, string>> = { en, es };

/** One of the engine's texts in both languages, the shape flow definitions use. */
export const msg = (key: FlowTextKey): I18n => ({ es: catalogues.es[key], en: catalogues.en[key] });

const fill = (s: string, vars: Record<string, string>, as: (value: string) => string = (v) => v) =>
  s.replace(/\{(\w+)\}/g, (m, k: string) => (vars[k] === undefined ? m : as(vars[k])));
/** A text shown as it is (a button's label, a card): the values as they are. */
export const label = (lang: Lang, t: I18n, vars: Record<string, string> = {}) => fill(t[lang], vars);
/** A message (markdown): the values, which users may have typed, escaped so that they show as typed. */
export const say = (lang: Lang, t: I18n, vars: Record<string, string> = {}) => fill(t[lang], vars, escapeMarkdown);
/** A route of the app: each value one path segment or query value. */
export const route = (goto: string, vars: Record<string, string>) => fill(goto, vars, encodeURIComponent);
