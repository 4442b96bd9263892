/**
 * Widgets in every language (issue 34 item 3): an action message carries its fields in the reply's language and,
 * in `i18n`, what reads otherwise in each other language, so that the chat shows its buttons and cards in the
 * language the interface is in now, and switching language turns them at once. Past messages' text stays as
 * it was written (docs/decisions.md).
 */

import { LANGUAGES, type ActionData } from '@sparks/contracts';
import type { Lang } from './types';
import type { Emit } from './widgets';

interface Emitted {
  type: ActionData['type'];
  payload: Record<string, unknown>;
}

/** The fields of `other` that read otherwise than in `own`. */
function differing(own: Record<string, unknown>, other: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(other))
    if (JSON.stringify(value) !== JSON.stringify(own[key])) out[key] = value;
  return out;
}

function recorder(): { emit: Emit; out: Emitted[] } {
  const out: Emitted[] = [];
  const emit: Emit = (type, payload) => {
    out.push({ type, payload: payload });
  };
  return { emit, out };
}

/** Emits what was rendered in `lang`, each with the other languages' renderings that differ in `i18n`. */
function merge(emit: Emit, lang: Lang, rendered: Map<Lang, Emitted[]>): void {
  const own = rendered.get(lang) ?? [];
  own.forEach(({ type, payload }, index) => {
    const i18n: Partial<Record<Lang, Record<string, unknown>>> = {};
    for (const other of LANGUAGES) {
      const twin = rendered.get(other)?.[index];
      if (other === lang || !twin || twin.type !== type) continue;
      const diff = differing(payload, twin.payload);
      if (Object.keys(diff).length > 0) i18n[other] = diff;
    }
    const fields = Object.keys(i18n).length > 0 ? { ...payload, i18n } : payload;
    emit(type, fields as Parameters<Emit>[1]);
  });
}

/** Emits the action messages `render` emits, rendered in every language (`lang` the reply's). */
export function inEveryLanguage(emit: Emit, lang: Lang, render: (emit: Emit, lang: Lang) => void): void {
  const rendered = new Map<Lang, Emitted[]>();
  for (const each of LANGUAGES) {
    const { emit: record, out } = recorder();
    render(record, each);
    rendered.set(each, out);
  }
  merge(emit, lang, rendered);
}

/** The same for a rendering that reads the ports (a step's widget, a card). */
export async function inEveryLanguageAsync(
  emit: Emit,
  lang: Lang,
  render: (emit: Emit, lang: Lang) => Promise<void>,
): Promise<void> {
  const rendered = new Map<Lang, Emitted[]>();
  for (const each of LANGUAGES) {
    const { emit: record, out } = recorder();
    await render(record, each);
    rendered.set(each, out);
  }
  merge(emit, lang, rendered);
}
