import type admin from '../public/locales/en/admin.json';
import type auth from '../public/locales/en/auth.json';
import type billing from '../public/locales/en/billing.json';
import type chat from '../public/locales/en/chat.json';
import type common from '../public/locales/en/common.json';
import type deploy from '../public/locales/en/deploy.json';
import type layout from '../public/locales/en/layout.json';
import type objectives from '../public/locales/en/objectives.json';
import type onboarding from '../public/locales/en/onboarding.json';
import type privacy from '../public/locales/en/privacy.json';
import type sparks from '../public/locales/en/sparks.json';

/** Typed translation keys: the English catalogues are the reference (locales.spec.ts keeps Spanish in step). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      auth: typeof auth;
      layout: typeof layout;
      sparks: typeof sparks;
      objectives: typeof objectives;
      chat: typeof chat;
      onboarding: typeof onboarding;
      deploy: typeof deploy;
      billing: typeof billing;
      admin: typeof admin;
      privacy: typeof privacy;
    };
  }
}
