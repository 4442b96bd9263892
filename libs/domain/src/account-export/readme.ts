import { t, type Language } from '@sparks/core';

/**
 * The README at the top of every export: what is where, in the account's language. `paths.ts` writes the layout
 * it describes; account-export.spec.ts checks that every folder named here is one the export writes.
 */
export function exportReadme(language: Language, params: { date: string; email: string }): string {
  return t(language, 'export.readme', params);
}
