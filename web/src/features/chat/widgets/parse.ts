import type { Choice, IconChoice, Palette, WidgetPreviewData } from '../types';

/** Reading the fields of action messages defensively: a malformed entry is left out, never a crash. */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Entries with a label and one of value, goto or link (in that order of preference). */
export function readChoices(value: unknown): Choice[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): Choice[] => {
    if (!isRecord(entry)) return [];
    const label = str(entry.label);
    if (!label) return [];
    const goto = str(entry.goto);
    const link = str(entry.link);
    const raw = entry.value;
    const val = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : undefined;
    if (val !== undefined && val !== '') return [{ label, value: val }];
    if (goto) return [{ label, goto }];
    if (link) return [{ label, link }];
    // Only a label: sending it is what a person would type.
    return [{ label, value: label }];
  });
}

const COLOR = /^#[0-9a-f]{3,8}$|^rgba?\([\d\s.,%]+\)$|^hsla?\([\d\s.,%deg]+\)$/i;

/** A CSS colour we are willing to paint with (hex, rgb(), hsl()); anything else is refused. */
export function safeColor(value: unknown, fallback: string): string {
  return typeof value === 'string' && COLOR.test(value.trim()) ? value.trim() : fallback;
}

export function readPalette(value: unknown): Palette | null {
  if (!isRecord(value)) return null;
  const name = str(value.name);
  const primary = str(value.primary);
  const secondary = str(value.secondary);
  if (!name || !primary || !secondary) return null;
  return { name, primary: safeColor(primary, '#6a4cf5'), secondary: safeColor(secondary, '#ece8ff') };
}

export function readPalettes(value: unknown): Palette[] {
  return Array.isArray(value) ? value.map(readPalette).filter((p): p is Palette => p !== null) : [];
}

export function readIcons(value: unknown): IconChoice[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): IconChoice[] => {
    if (!isRecord(entry)) return [];
    const name = str(entry.name);
    const icon = str(entry.icon);
    return name && icon ? [{ name, icon }] : [];
  });
}

export interface InfoLine {
  label: string;
  value: string | Array<[string, string]>;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** `card` info: label/value pairs; an object value becomes key/value lines. */
export function readCardInfo(value: unknown): InfoLine[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): InfoLine[] => {
    if (!isRecord(entry)) return [];
    const label = text(entry.label);
    const raw = entry.value;
    if (isRecord(raw) && !Array.isArray(raw))
      return [{ label, value: Object.entries(raw).map(([k, v]): [string, string] => [k, text(v)]) }];
    return [{ label, value: text(raw) }];
  });
}

/** `userCard` info: type/result pairs. */
export function readUserCardInfo(value: unknown): InfoLine[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): InfoLine[] =>
    isRecord(entry) ? [{ label: text(entry.type), value: text(entry.result) }] : [],
  );
}

export function readPreview(value: unknown): WidgetPreviewData | null {
  if (!isRecord(value)) return null;
  return {
    name: text(value.name),
    initialMessage: text(value.initialMessage),
    language: text(value.language),
    palette: readPalette(value.palette),
    icon: str(value.icon) ?? null,
  };
}
