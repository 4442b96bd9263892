import { forgetConversation } from '../chat/storage';
import { setChatMode } from '../sparks/chatMode';
import { sendBuilderMessage } from './api';
import { FEEDBACK_SEND_DELAY_MS, feedbackMessage, sparkPath } from './rules';

export interface FeedbackEffects {
  /** Router navigation (the data router's: it keeps working after the test page unmounts). */
  navigate: (to: string, options?: { replace?: boolean }) => unknown;
  /** The current path, read when the reply arrives. */
  currentPath: () => string;
  send?: typeof sendBuilderMessage;
  delay?: number;
  now?: () => number;
  /** setTimeout, replaceable in tests. */
  schedule?: (run: () => void, ms: number) => unknown;
}

/**
 * docs/product.md §4 test feedback, once the test is deleted: the chat mode goes back to Normal, the browser goes to the
 * Spark, the Spark's stored builder conversation is forgotten (the page loads the server's one) and, 0.5 s
 * later, 'test satisfactory' or 'test not satisfactory' goes into the Spark chat. When the reply has arrived
 * and the user is still on the Spark, the page is opened again with `?refresh=<time>` so it reloads its history.
 * Answers when the message has been answered (or failed: logged, never thrown).
 */
export function sendTestFeedback(sparkId: string, satisfactory: boolean, effects: FeedbackEffects): Promise<void> {
  const {
    navigate,
    currentPath,
    send = sendBuilderMessage,
    delay = FEEDBACK_SEND_DELAY_MS,
    now = Date.now,
    schedule = (run, ms) => setTimeout(run, ms),
  } = effects;
  const target = sparkPath(sparkId);
  setChatMode('Normal');
  forgetConversation({ kind: 'builder', sparkId });
  navigate(target);
  return new Promise<void>((resolve) => {
    schedule(() => {
      send(sparkId, feedbackMessage(satisfactory))
        .then(() => {
          if (currentPath() === target) navigate(`${target}?refresh=${now()}`, { replace: true });
        })
        .catch((error: unknown) => console.error('Failed to send message', error))
        .finally(resolve);
    }, delay);
  });
}
