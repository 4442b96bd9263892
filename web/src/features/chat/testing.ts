import i18next, { type i18n as I18n } from 'i18next';

import enChat from '../../../public/locales/en/chat.json';
import esChat from '../../../public/locales/es/chat.json';
import { initI18n, type Language } from '../../i18n';
import { catalogues } from '../../testing/i18n';

/** For the chat's jest specs: the app's catalogues plus the chat's, in memory. */
export function initChatTestI18n(lng: Language = 'en'): Promise<I18n> {
  return initI18n(i18next.createInstance(), {
    resources: { en: { ...catalogues.en, chat: enChat }, es: { ...catalogues.es, chat: esChat } },
    lng,
  });
}
