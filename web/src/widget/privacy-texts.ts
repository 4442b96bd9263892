import type { WidgetLanguage } from './texts';

/**
 * The texts of the visitor's rights (issue 30), in both languages (widget.spec.ts checks they match). Apart from
 * texts.ts, which the loader bundles too: these are the chat's only, so the loader on every page view stays small.
 */
export const PRIVACY_TEXTS = {
  es: {
    notice:
      'Las respuestas las escribe automáticamente un asistente. Esta conversación se guarda {days} días después de su último mensaje y puedes borrarla cuando quieras.',
    deleteConversation: 'Borrar esta conversación',
    deleteConfirm: '¿Borrar esta conversación y sus mensajes? No se puede deshacer.',
    deleteYes: 'Borrar',
    deleteNo: 'Cancelar',
    deleted: 'Tu conversación se ha borrado.',
    deleteFailed: 'No se pudo borrar la conversación. Inténtalo de nuevo en un momento.',
  },
  en: {
    notice:
      'Answers are written automatically by an assistant. This conversation is kept for {days} days after its last message, and you can delete it at any time.',
    deleteConversation: 'Delete this conversation',
    deleteConfirm: 'Delete this conversation and its messages? This cannot be undone.',
    deleteYes: 'Delete',
    deleteNo: 'Cancel',
    deleted: 'Your conversation was deleted.',
    deleteFailed: 'The conversation could not be deleted. Please try again in a moment.',
  },
} as const;

export type PrivacyTextKey = keyof (typeof PRIVACY_TEXTS)['en'];

export function privacyText(language: WidgetLanguage, key: PrivacyTextKey, days = 0): string {
  return PRIVACY_TEXTS[language][key].replace('{days}', String(days));
}
