import i18next, { type i18n as I18n } from 'i18next';

import enAdmin from '../../public/locales/en/admin.json';
import enAuth from '../../public/locales/en/auth.json';
import enBilling from '../../public/locales/en/billing.json';
import enCommon from '../../public/locales/en/common.json';
import enLayout from '../../public/locales/en/layout.json';
import enObjectives from '../../public/locales/en/objectives.json';
import enOnboarding from '../../public/locales/en/onboarding.json';
import enSparks from '../../public/locales/en/sparks.json';
import esAdmin from '../../public/locales/es/admin.json';
import esAuth from '../../public/locales/es/auth.json';
import esBilling from '../../public/locales/es/billing.json';
import esCommon from '../../public/locales/es/common.json';
import esLayout from '../../public/locales/es/layout.json';
import esObjectives from '../../public/locales/es/objectives.json';
import esOnboarding from '../../public/locales/es/onboarding.json';
import esSparks from '../../public/locales/es/sparks.json';
import { initI18n, type Language } from '../i18n';

export const catalogues = {
  en: {
    common: enCommon,
    auth: enAuth,
    layout: enLayout,
    sparks: enSparks,
    objectives: enObjectives,
    onboarding: enOnboarding,
    billing: enBilling,
    admin: enAdmin,
  },
  es: {
    common: esCommon,
    auth: esAuth,
    layout: esLayout,
    sparks: esSparks,
    objectives: esObjectives,
    onboarding: esOnboarding,
    billing: esBilling,
    admin: esAdmin,
  },
};

/** A fresh i18next with the real catalogues in memory (no HTTP), bound to react-i18next, for jest. */
export function initTestI18n(lng: Language = 'en'): Promise<I18n> {
  return initI18n(i18next.createInstance(), { resources: catalogues, lng });
}
