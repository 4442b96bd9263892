import type { Language } from '../../i18n';
import type { ChatMessage } from './types';

/**
 * A message as it reads in `language` (issue 34 item 3): the flow engine sends each widget's and card's fields,
 * and its own texts, in the reply's language and, in `data.i18n`, what reads otherwise in each other language; the
 * chat shows them in the interface's language, so a switch turns the buttons, cards and questions at once.
 * Messages without `i18n` (written before it, by the model, or with nothing to translate) read as they were sent.
 */
export function localized(message: ChatMessage, language: Language): ChatMessage {
  const variants: unknown = message.data.i18n;
  if (!variants || typeof variants !== 'object') return message;
  const own: unknown = (variants as Record<string, unknown>)[language];
  if (!own || typeof own !== 'object' || Array.isArray(own)) return message;
  // The data's type is the message's own; an action's content is not shown (an assistant's text is).
  const { type: _type, content, i18n: _i18n, ...fields } = own as Record<string, unknown>;
  const text = message.type === 'ai' && typeof content === 'string' ? { content } : {};
  return { ...message, data: { ...message.data, ...fields, ...text } };
}
