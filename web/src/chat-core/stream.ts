/** A reply as it streams in: the message id its tokens carry and the text so far. */
export interface Streamed {
  messageId?: string;
  text: string;
}

/**
 * Adds a token to the reply being streamed. A reply job handed to another worker (its worker died mid-reply)
 * starts again under a new message id: its first token starts the text over instead of following the dead
 * attempt's partial text.
 */
export function addToken(current: Streamed, messageId: string | undefined, text: string): Streamed {
  return messageId === current.messageId ? { messageId, text: current.text + text } : { messageId, text };
}
