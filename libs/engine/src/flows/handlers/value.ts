/**
 * A value that does not look like what the step asks (a name that is a sentence, a greeting that is an instruction
 * to the builder) is confirmed before it is used.
 */

import { z } from 'zod';
import type { FlowTextKey } from '../texts';
import type { Dialog, Turn } from '../turn';

const confirming = z.object({
  name: z.literal('valueConfirm'),
  draft: z.string(),
  /** What the value is for (a name when absent: states stored before issue 31). */
  field: z.enum(['name', 'greeting']).optional(),
});

const TEXTS = {
  name: { ask: 'confirmValue', yes: 'confirmValueYes', no: 'confirmValueNo', again: 'askAgain' },
  greeting: { ask: 'confirmGreeting', yes: 'confirmGreetingYes', no: 'confirmGreetingNo', again: 'askAgainGreeting' },
} as const;

/** "Please answer yes or no", and the two buttons again: the dialog goes on. */
export function askAgain(turn: Turn, yes: FlowTextKey, no: FlowTextKey): true {
  turn.text(turn.markdown('reask') + turn.markdown('yesNo'));
  turn.localAction('buttons', (l) => ({
    buttons: [
      { label: l(yes), value: 'yes' },
      { label: l(no), value: 'no' },
    ],
  }));
  return true;
}

/** Asks whether `draft` is really the answer to the current step. */
export function confirmValue(turn: Turn, draft: string, field: 'name' | 'greeting'): void {
  turn.setDialog({ name: 'valueConfirm', draft, field });
  const texts = TEXTS[field];
  turn.say(texts.ask, { draftValue: draft });
  turn.localAction('buttons', (l) => ({
    buttons: [
      { label: l(texts.yes), value: 'yes' },
      { label: l(texts.no), value: 'no' },
    ],
  }));
}

export const valueConfirmDialog: Dialog<typeof confirming> = {
  schema: confirming,
  async reply(turn, { draft, field = 'name' }) {
    const reading = await turn.read({ kind: 'confirm' }, turn.label(TEXTS[field].ask, { draftValue: draft }));
    const step = turn.step(turn.state.step);
    if (!step) return false;
    // Unclear: the question again. A change ("no, call it Espiga") or a question is read by the step itself.
    if (reading.kind === 'other') return askAgain(turn, TEXTS[field].yes, TEXTS[field].no);
    if (reading.kind !== 'agree' && reading.kind !== 'disagree') return false;
    turn.setDialog(undefined);
    if (reading.kind === 'agree') await turn.take(step, draft);
    else {
      turn.say(TEXTS[field].again);
      await turn.widget(step);
    }
    return true;
  },
};
