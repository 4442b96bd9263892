/**
 * The server's texts (api, worker, libs): one catalogue per language in `locales/<lang>/<namespace>.json`, read
 * through {@link t}, values put in by {@link interpolate}. Adding a language is adding its folder here and its
 * imports below (and the language in `@sparks/contracts`); `texts.spec.ts` checks every catalogue has the same keys
 * and placeholders as English.
 */
import { LANGUAGES, type Language } from '@sparks/contracts';
import enAssistants from './locales/en/assistants.json';
import enDigest from './locales/en/digest.json';
import enEmails from './locales/en/emails.json';
import enEngine from './locales/en/engine.json';
import enExport from './locales/en/export.json';
import enErrors from './locales/en/errors.json';
import enFlows from './locales/en/flows.json';
import enHelp from './locales/en/help.json';
import enKnowledge from './locales/en/knowledge.json';
import enObjectives from './locales/en/objectives.json';
import enSparks from './locales/en/sparks.json';
import esAssistants from './locales/es/assistants.json';
import esDigest from './locales/es/digest.json';
import esEmails from './locales/es/emails.json';
import esEngine from './locales/es/engine.json';
import esExport from './locales/es/export.json';
import esErrors from './locales/es/errors.json';
import esFlows from './locales/es/flows.json';
import esHelp from './locales/es/help.json';
import esKnowledge from './locales/es/knowledge.json';
import esObjectives from './locales/es/objectives.json';
import esSparks from './locales/es/sparks.json';

const en = {
  assistants: enAssistants,
  digest: enDigest,
  emails: enEmails,
  engine: enEngine,
  errors: enErrors,
  export: enExport,
  flows: enFlows,
  help: enHelp,
  knowledge: enKnowledge,
  objectives: enObjectives,
  sparks: enSparks,
};
/** The shape of every language's catalogue: the English one's. */
export type Catalogue = typeof en;

const CATALOGUES: Record<Language, Catalogue> = {
  en,
  es: {
    assistants: esAssistants,
    digest: esDigest,
    emails: esEmails,
    engine: esEngine,
    errors: esErrors,
    export: esExport,
    flows: esFlows,
    help: esHelp,
    knowledge: esKnowledge,
    objectives: esObjectives,
    sparks: esSparks,
  },
};

/** Dotted paths of the leaves of a catalogue: `{ a: { b: 'x' } }` → `'a.b'`. */
type Leaves<T> = {
  [K in keyof T & string]: T[K] extends string ? K : T[K] extends object ? `${K}.${Leaves<T[K]>}` : never;
}[keyof T & string];

/** A text of the server's catalogues: `namespace.key` (`errors.NOT_FOUND`, `emails.welcome.subject`). */
export type TextKey = Leaves<Catalogue>;

/** Values put into a text's `{placeholders}`. */
export type TextVars = Record<string, string | number>;

/**
 * The one interpolation of the server: each `{name}` with a value becomes the value (through `as`, e.g. an escape for
 * markdown or a URL); a placeholder without a value stays as it is.
 */
export function interpolate(template: string, vars: TextVars = {}, as: (value: string) => string = (v) => v): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (vars[k] === undefined ? m : as(String(vars[k]))));
}

/** The text at `key`; the key itself when there is none (only a key built at run time can miss, as in i18next). */
function lookup(language: Language, key: TextKey): string {
  let node: unknown = CATALOGUES[language];
  for (const part of key.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : key;
}

/** A text in a language, its placeholders filled. */
export function t(language: Language, key: TextKey, vars?: TextVars): string {
  return vars ? interpolate(lookup(language, key), vars) : lookup(language, key);
}

/** A text in every language, its placeholders left to fill (the shape flow definitions hold). */
export function texts(key: TextKey): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, lookup(language, key)])) as Record<Language, string>;
}
