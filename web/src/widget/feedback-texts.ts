import type { WidgetLanguage } from './texts';

/**
 * The texts of rating an answer (issue 35), in both languages (widget.spec.ts checks they match). Apart from texts.ts,
 * which the loader bundles too: these are the chat's only, so the loader on every page view stays small.
 */
export const FEEDBACK_TEXTS = {
  es: {
    question: '¿Te ha sido útil?',
    up: 'Útil',
    down: 'No útil',
    why: '¿Qué ha fallado? (opcional)',
    skip: 'Omitir',
    thanks: 'Gracias por tu opinión',
    failed: 'No se pudo enviar tu valoración. Inténtalo de nuevo.',
  },
  en: {
    question: 'Was this helpful?',
    up: 'Helpful',
    down: 'Not helpful',
    why: 'What was wrong? (optional)',
    skip: 'Skip',
    thanks: 'Thanks for your feedback',
    failed: 'Your rating could not be sent. Please try again.',
  },
} as const;

export type FeedbackTextKey = keyof (typeof FEEDBACK_TEXTS)['en'];

export const feedbackText = (language: WidgetLanguage, key: FeedbackTextKey): string => FEEDBACK_TEXTS[language][key];
