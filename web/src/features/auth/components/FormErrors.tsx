import type { Message } from '../errors';
import { useMessageText } from '../hooks/useMessageText';
import { FormAlert } from './FormAlert';

/** The form-wide errors (not tied to one field), one paragraph each, announced at once; nothing when none. */
export function FormErrors({ messages }: { messages: readonly Message[] }) {
  const text = useMessageText();
  if (messages.length === 0) return null;
  return (
    <FormAlert>
      {messages.map((message, index) => (
        <p key={index}>{text(message)}</p>
      ))}
    </FormAlert>
  );
}
