/**
 * The answer to a step, from the reading of the reply (understanding/): every kind of step acts on what the reply
 * means, never on its words alone — agreement and keep phrases are never saved as values, a value unlike what was
 * asked is confirmed first, a change of another value is made from any step, a question is answered and the step
 * asked again.
 */

import { offerFacts } from './handlers/facts';
import { applyChange } from './handlers/change';
import { confirmValue } from './handlers/value';
import type { FlowTextKey } from './texts';
import { route } from './texts';
import type { Turn } from './turn';
import type { Choice, Step } from './types';
import { matchChoice } from './understand';
import type { Ask, Reading } from './understanding';
import { choicesFor, visible } from './widgets';

/** What the step asks, for reading the reply. */
function askOf(step: Step, choices: Choice[]): Ask {
  const spec = step.answer;
  switch (spec.kind) {
    case 'text':
      return { kind: 'value', field: step.field ?? 'text', keep: !!spec.keep };
    case 'yesno':
      return { kind: 'confirm' };
    case 'choice':
    case 'language':
    case 'palette':
    case 'icon':
      return { kind: 'choice', choices, ...(step.field ? { field: step.field } : {}) };
    case 'event':
      return { kind: 'wait' };
    case 'help':
    case 'none':
      return { kind: 'free' };
  }
}

/** "All right, it stays …", by what the step asks. */
const KEPT: Partial<Record<NonNullable<Step['field']>, FlowTextKey>> = { name: 'kept', greeting: 'keptGreeting' };

/** The Spark's current value of a field chosen from a list (kept by "the same", "déjalo igual"). */
async function current(turn: Turn, step: Step): Promise<string | undefined> {
  const spark = await turn.ports.sparks.current();
  if (!spark) return undefined;
  switch (step.field) {
    case 'palette':
      return spark.palette?.name;
    case 'icon':
      return spark.icon;
    case 'language':
      return spark.language;
    case 'tone':
      return spark.tone;
    case 'name':
    case 'greeting':
    case 'description':
    case undefined:
      return undefined;
  }
}

/** "I didn't quite get that" and why, and the step's widget; without a why, the step's question again. */
async function reask(turn: Turn, step: Step, why?: FlowTextKey, vars: Record<string, string> = {}): Promise<void> {
  const all = await turn.vars();
  turn.text(turn.markdown('reask') + (why ? turn.markdown(why, vars) : ''));
  if (!why && step.say.length > 0) turn.say(step.say.at(-1)!, all);
  await turn.widget(step, all);
}

/** A question at a step: the step's own hint, or the built-in help; then the step again. */
async function answerQuestion(turn: Turn, step: Step, text: string): Promise<void> {
  const vars = await turn.vars();
  if (step.hint) turn.say(step.hint, vars);
  else turn.text(await turn.ports.help.answer(text, turn.lang));
  if (step.answer.kind !== 'help') for (const line of step.say.slice(-1)) turn.say(line, vars);
  await turn.widget(step, vars);
}

export async function answer(turn: Turn, step: Step, raw: string): Promise<void> {
  const text = raw.trim();
  const spec = step.answer;
  const vars = await turn.vars();
  const choices = await visible(choicesFor(spec), vars, turn.ports);
  const asked = step.say.at(-1);
  const reading: Reading = await turn.read(askOf(step, choices), asked ? turn.label(asked, vars) : '');
  if (reading.kind === 'change' && (await applyChange(turn, reading))) return;
  if ((reading.kind === 'value' || reading.kind === 'other') && (await offerFacts(turn, step, text))) return;
  if (reading.kind === 'question' && spec.kind !== 'help' && spec.kind !== 'none')
    return answerQuestion(turn, step, text);
  switch (spec.kind) {
    case 'text': {
      if (reading.kind === 'keep' && spec.keep) {
        if (step.objective) await turn.ports.objectives.setStatus(step.id, 'completed');
        turn.say(KEPT[step.field ?? 'name'] ?? 'keptValue', await turn.vars());
        return turn.askFrom(turn.nextOf(step, ''));
      }
      if (!text) return reask(turn, step, 'empty');
      // Agreeing, refusing, skipping or chatting is no value: the question again.
      if (reading.kind !== 'value') return reask(turn, step);
      const value = reading.value ?? text;
      if (spec.min && value.length < spec.min) return reask(turn, step, 'tooShort', { min: String(spec.min) });
      if (spec.max && value.length > spec.max) return reask(turn, step, 'tooLong', { max: String(spec.max) });
      if (reading.unusual && (step.field === 'name' || step.field === 'greeting'))
        return confirmValue(turn, value, step.field);
      return turn.take(step, value);
    }
    case 'yesno': {
      if (reading.kind === 'agree') return turn.take(step, 'yes');
      if (reading.kind === 'disagree') return turn.take(step, 'no');
      return reask(turn, step, 'yesNo');
    }
    case 'choice':
    case 'language':
    case 'palette':
    case 'icon': {
      const kept = reading.kind === 'keep' ? await current(turn, step) : undefined;
      const chosen = reading.kind === 'value' ? reading.value : kept;
      if (chosen && choices.some((c) => c.value === chosen)) return turn.take(step, chosen);
      const options = choices.map((c) => turn.label(c.label, vars)).join(', ');
      return reask(turn, step, 'chooseOne', { options });
    }
    case 'event': {
      const choice = matchChoice(text, spec.choices ?? []);
      if ((await turn.ports.objectives.status(step.id)) === 'completed') return turn.take(step, 'done');
      if (spec.skippable && (reading.kind === 'skip' || choice?.value === 'skip')) return turn.take(step, 'skip');
      return turn.say(spec.skippable ? 'waiting' : 'waitingNoSkip');
    }
    case 'help': {
      const choice = matchChoice(text, choices);
      if (!choice) {
        turn.text(await turn.ports.help.answer(text, turn.lang));
        return turn.widget(step, vars);
      }
      if (choice.goto || choice.link) {
        // Typed rather than clicked: hand back the one button that does it.
        turn.localAction('buttons', (l) => ({
          buttons: [
            {
              label: l(choice.label, vars),
              ...(choice.goto ? { goto: route(choice.goto, vars) } : { link: choice.link }),
            },
          ],
        }));
        return;
      }
      return turn.take(step, choice.value);
    }
    case 'none':
      return turn.take(step, '');
  }
}
