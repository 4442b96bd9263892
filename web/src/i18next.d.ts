import type auth from '../public/locales/en/auth.json';
import type common from '../public/locales/en/common.json';

/** Typed translation keys: the English catalogues are the reference (locales.spec.ts keeps Spanish in step). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      auth: typeof auth;
    };
  }
}
