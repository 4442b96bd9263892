/** A value that does not look like what the step asks (a name that is a sentence) is confirmed before it is used. */

import { z } from 'zod';
import type { Dialog, Turn } from '../turn';
import { yesNo } from '../understand';

const confirming = z.object({ name: z.literal('valueConfirm'), draft: z.string() });

/** Asks whether `draft` is really the answer to the current step. */
export function confirmValue(turn: Turn, draft: string): void {
  turn.setDialog({ name: 'valueConfirm', draft });
  turn.say('confirmValue', { draftValue: draft });
  turn.action('buttons', {
    buttons: [
      { label: turn.label('confirmValueYes'), value: 'yes' },
      { label: turn.label('confirmValueNo'), value: 'no' },
    ],
  });
}

export const valueConfirmDialog: Dialog<typeof confirming> = {
  schema: confirming,
  async reply(turn, { draft }, text) {
    const answer = yesNo(text);
    const step = turn.step(turn.state.step);
    if (!answer || !step) return false;
    turn.setDialog(undefined);
    if (answer === 'yes') await turn.take(step, draft);
    else {
      turn.say('askAgain');
      await turn.widget(step);
    }
    return true;
  },
};
