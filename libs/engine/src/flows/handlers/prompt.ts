/**
 * The Spark's instructions from the builder chat (issue 18 item 4): "show instructions", "change instructions" (the
 * next message is a draft shown for confirmation, saved only on yes, with an undo) and "undo instructions".
 */

import { z } from 'zod';
import { msg } from '../texts';
import { matchChoice } from '../understand';
import { promptCard } from '../widgets';
import type { Dialog, IntentHandler } from '../turn';

const waiting = z.object({ name: z.literal('prompt') });
const confirming = z.object({ name: z.literal('promptConfirm'), draft: z.string() });

/** The message after "change instructions": the new instructions, shown for confirmation. */
export const promptDialog: Dialog<typeof waiting> = {
  schema: waiting,
  reply(turn, _state, raw) {
    const text = raw.trim();
    if (turn.intent(text)) return Promise.resolve(false);
    if (text.length < 20) {
      turn.say('promptEmpty');
      return Promise.resolve(true);
    }
    turn.setDialog({ name: 'promptConfirm', draft: text });
    turn.say('promptDraft');
    turn.inEveryLanguage((emit, lang) => promptCard(emit, lang, text));
    turn.yesNoButtons('promptSave', 'promptCancel');
    return Promise.resolve(true);
  },
};

export const promptConfirmDialog: Dialog<typeof confirming> = {
  schema: confirming,
  async reply(turn, { draft }, text) {
    const saved =
      (await turn.read({ kind: 'confirm' }, turn.label('promptDraft'))).kind === 'agree' ||
      !!matchChoice(text, [{ value: 'yes', label: msg('promptSave') }]);
    turn.setDialog(undefined);
    if (saved && draft) {
      const spark = await turn.ports.sparks.current();
      turn.setVar('previousPrompt', spark?.sysPrompt ?? '');
      await turn.ports.sparks.update({ sysPrompt: draft });
      turn.say('promptSavedUndo');
      turn.localAction('buttons', (l) => ({ buttons: [{ label: l('promptUndo'), value: 'undo instructions' }] }));
    } else {
      turn.say('promptCancelled');
    }
    await turn.askFrom(turn.state.step);
    return true;
  },
};

export const showPrompt: IntentHandler = {
  async run(turn) {
    const spark = await turn.ports.sparks.current();
    if (spark) turn.inEveryLanguage((emit, lang) => promptCard(emit, lang, spark.sysPrompt));
  },
};

export const editPrompt: IntentHandler = {
  // Its confirmation keeps the instructions it replaces, for "undo instructions".
  writes: ['previousPrompt'],
  run(turn) {
    turn.setDialog({ name: 'prompt' });
    turn.say('askPrompt');
    return Promise.resolve();
  },
};

export const undoPrompt: IntentHandler = {
  writes: ['previousPrompt'],
  async run(turn) {
    const previous = turn.state.vars.previousPrompt;
    if (previous === undefined) return turn.say('promptNothingToUndo');
    delete turn.state.vars.previousPrompt;
    await turn.ports.sparks.update({ sysPrompt: previous });
    turn.say('promptUndone');
    return turn.askFrom(turn.state.step);
  },
};
