import type { Language } from '../../i18n';
import type { ChatMessage } from './types';

/**
 * An action message as it reads in `language` (issue 34 item 3): the flow engine sends each widget's and card's
 * fields in the reply's language and, in `data.i18n`, what reads otherwise in each other language; the chat shows
 * them in the interface's language, so a switch turns the buttons and cards at once. Messages without `i18n`
 * (written before it, or with nothing to translate) read as they were sent.
 */
export function localized(message: ChatMessage, language: Language): ChatMessage {
  const variants: unknown = message.data.i18n;
  if (!variants || typeof variants !== 'object') return message;
  const own: unknown = (variants as Record<string, unknown>)[language];
  if (!own || typeof own !== 'object' || Array.isArray(own)) return message;
  // The type and the text content are the message's own; only a widget's fields read in another language.
  const { type: _type, content: _content, i18n: _i18n, ...fields } = own as Record<string, unknown>;
  return { ...message, data: { ...message.data, ...fields } };
}
