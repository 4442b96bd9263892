/** The flow engine's texts (`flows.*` of `@sparks/core`'s catalogues) and how values are put into them. */

import { escapeMarkdown } from '@sparks/contracts';
import { interpolate, texts, type Catalogue } from '@sparks/core';
import type { I18n, Lang } from './types';

export type FlowTextKey = keyof Catalogue['flows'];

/** One of the engine's texts in every language, the shape flow definitions use. */
export const msg = (key: FlowTextKey): I18n => texts(`flows.${key}`);

/** A text shown as it is (a button's label, a card): the values as they are. */
export const label = (lang: Lang, t: I18n, vars: Record<string, string> = {}) => interpolate(t[lang], vars);
/** A message (markdown): the values, which users may have typed, escaped so that they show as typed. */
export const say = (lang: Lang, t: I18n, vars: Record<string, string> = {}) =>
  interpolate(t[lang], vars, escapeMarkdown);
/** A route of the app: each value one path segment or query value. */
export const route = (goto: string, vars: Record<string, string>) => interpolate(goto, vars, encodeURIComponent);
