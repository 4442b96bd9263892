/**
 * The deploy assistant's "unpublish" and "new code" (issue 16): which Spark (asked only when several are
 * published), then a confirmation; nothing changes without a yes.
 */

import { z } from 'zod';
import type { PublishedSpark } from '../ports';
import { msg } from '../texts';
import type { Dialog, IntentHandler, Turn } from '../turn';
import { matchChoice, normalize } from '../understand';

const action = z.enum(['unpublish', 'rotate']);
type DeployAction = z.infer<typeof action>;
const which = z.object({ name: z.literal('deployWhich'), action });
const confirm = z.object({ name: z.literal('deployConfirm'), action, sparkId: z.string(), sparkName: z.string() });

/** The published Spark a text names (its name, any case or accents), if any. */
function publishedNamed(published: PublishedSpark[], text: string): PublishedSpark | undefined {
  const said = normalize(text);
  const exact = matchChoice(
    text,
    published.map((p) => ({ value: p.sparkId, label: { es: p.name, en: p.name } })),
  );
  if (exact) return published.find((p) => p.sparkId === exact.value);
  // "unpublish Northwind": the name after the words of the request.
  return published.find((p) => normalize(p.name) && said.endsWith(` ${normalize(p.name)}`));
}

function deploymentButtons(turn: Turn, published: PublishedSpark[]): void {
  turn.action('buttons', { buttons: published.map((p) => ({ label: p.name, value: p.name })) });
}

function confirmDeployment(turn: Turn, act: DeployAction, spark: PublishedSpark): void {
  turn.setDialog({ name: 'deployConfirm', action: act, sparkId: spark.sparkId, sparkName: spark.name });
  const unpublish = act === 'unpublish';
  turn.say(unpublish ? 'deployConfirmUnpublish' : 'deployConfirmRotate', { name: spark.name });
  turn.localAction('buttons', (l) => ({
    buttons: [
      { label: l(unpublish ? 'deployYesUnpublish' : 'deployYesRotate'), value: 'yes' },
      { label: l('deployNo'), value: 'no' },
    ],
  }));
}

function manage(act: DeployAction): IntentHandler {
  return {
    async run(turn, text) {
      const published = await turn.ports.deploy.published();
      if (published.length === 0) return turn.say('deployNonePublished');
      const spark = published.length === 1 ? published[0] : publishedNamed(published, text);
      if (spark) return confirmDeployment(turn, act, spark);
      turn.setDialog({ name: 'deployWhich', action: act });
      turn.say(act === 'unpublish' ? 'deployWhichUnpublish' : 'deployWhichRotate');
      deploymentButtons(turn, published);
    },
  };
}

export const unpublish = manage('unpublish');
export const rotateToken = manage('rotate');

export const deployWhichDialog: Dialog<typeof which> = {
  schema: which,
  async reply(turn, state, text) {
    if (turn.intent(text)) return false;
    const published = await turn.ports.deploy.published();
    const spark = publishedNamed(published, text);
    if (spark) {
      confirmDeployment(turn, state.action, spark);
      return true;
    }
    if ((await turn.read({ kind: 'confirm' })).kind === 'disagree' || published.length === 0) {
      turn.setDialog(undefined);
      turn.say('deployKept', { name: '' });
      await turn.offerAgain();
      return true;
    }
    turn.say('chooseOne', { options: published.map((p) => p.name).join(', ') });
    deploymentButtons(turn, published);
    return true;
  },
};

export const deployConfirmDialog: Dialog<typeof confirm> = {
  schema: confirm,
  async reply(turn, state, text) {
    const asked = state.action === 'unpublish' ? 'deployConfirmUnpublish' : 'deployConfirmRotate';
    const reading = await turn.read({ kind: 'confirm' }, turn.label(asked, { name: state.sparkName }));
    const answer =
      (reading.kind === 'agree' ? 'yes' : reading.kind === 'disagree' ? 'no' : undefined) ??
      (matchChoice(text, [
        { value: 'yes', label: msg('deployYesUnpublish') },
        { value: 'yes', label: msg('deployYesRotate') },
        { value: 'no', label: msg('deployNo') },
      ])?.value as 'yes' | 'no' | undefined);
    turn.setDialog(undefined);
    // Anything else is not a yes: nothing is changed, and the message is read as usual.
    if (!answer) return false;
    const { sparkId, sparkName: name } = state;
    if (answer === 'no') {
      turn.say('deployKept', { name });
      await turn.offerAgain();
      return true;
    }
    if (state.action === 'unpublish') {
      const done = await turn.ports.deploy.unpublish(sparkId);
      if (!done) turn.say('deployNotPublished', { name });
      else turn.say('deployUnpublished', { name, used: String(done.used), limit: String(done.limit) });
    } else {
      const done = await turn.ports.deploy.revokeToken(sparkId);
      turn.say(done ? 'deployRotated' : 'deployNotPublished', { name });
    }
    await turn.offerAgain();
    return true;
  },
};
