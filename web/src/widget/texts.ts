/** Every text the website widget shows, in both languages (widget.spec.ts checks they match). */
export const TEXTS = {
  es: {
    open: 'Abrir el chat con {name}',
    close: 'Cerrar el chat',
    newConversation: 'Nueva conversación',
    placeholder: 'Escribe tu pregunta…',
    send: 'Enviar',
    messages: 'Mensajes',
    you: 'Tú',
    thinking: 'Escribiendo…',
    failed: 'No se pudo obtener respuesta. Inténtalo de nuevo en un momento.',
    tooMany: 'Demasiados mensajes seguidos. Espera {seconds} s y vuelve a intentarlo.',
    outOfInteractions:
      'Ahora mismo no puedo responder. Si quieres, deja tu correo y el equipo se pondrá en contacto contigo.',
    dailyLimit:
      'Hoy ya he respondido todas las preguntas que puedo. Si quieres, deja tu correo y el equipo se pondrá en contacto contigo.',
    email: 'Tu correo electrónico',
    leaveEmail: 'Enviar mi correo',
    emailSaved: '¡Gracias! Te escribiremos pronto.',
    emailInvalid: 'Esa dirección de correo no parece correcta. Revísala, por favor.',
    emailFailed: 'No se pudo enviar tu correo. Inténtalo de nuevo en un momento.',
    sessionEnded: 'La sesión ha terminado. Recarga la página para empezar de nuevo.',
    count: '{count} / {max} caracteres',
    limit: 'Has llegado al límite: {max} caracteres por mensaje. Lo que pasaba de ahí no se ha guardado.',
  },
  en: {
    open: 'Open the chat with {name}',
    close: 'Close the chat',
    newConversation: 'New conversation',
    placeholder: 'Type your question…',
    send: 'Send',
    messages: 'Messages',
    you: 'You',
    thinking: 'Typing…',
    failed: 'No answer could be got. Please try again in a moment.',
    tooMany: 'Too many messages in a row. Wait {seconds} s and try again.',
    outOfInteractions: 'I cannot answer right now. If you like, leave your e-mail and the team will get back to you.',
    dailyLimit:
      'I have answered all the questions I can for today. If you like, leave your e-mail and the team will get back to you.',
    email: 'Your e-mail address',
    leaveEmail: 'Send my e-mail',
    emailSaved: 'Thank you! We will write to you soon.',
    emailInvalid: 'That e-mail address does not look right. Please check it.',
    emailFailed: 'Your e-mail could not be sent. Please try again in a moment.',
    sessionEnded: 'The session has ended. Reload the page to start again.',
    count: '{count} / {max} characters',
    limit: 'That is the limit: {max} characters a message. Anything longer was not kept.',
  },
} as const;

export type WidgetLanguage = keyof typeof TEXTS;
export type TextKey = keyof (typeof TEXTS)['en'];

export function text(language: WidgetLanguage, key: TextKey, params: Record<string, string | number> = {}): string {
  return TEXTS[language][key].replace(/\{(\w+)\}/g, (m, k: string) =>
    params[k] !== undefined ? String(params[k]) : m,
  );
}
