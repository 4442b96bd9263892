/**
 * An answer that tells more about the business than the step asks (issue 17 item 4): read as a whole (business.ts,
 * or the language model), shown for confirmation, and then it fills every step it answers at once.
 */

import { z } from 'zod';
import { TONES, type BusinessFacts, type Tone } from '../business';
import type { Field } from '../understanding';
import { TONE_TEXT } from '../prompt';
import type { Dialog, Turn } from '../turn';
import { askAgain } from './value';
import type { Step } from '../types';
import { promptCard } from '../widgets';

const factsSchema = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  tone: z.enum(TONES).optional(),
  hours: z.string().optional(),
});
const confirming = z.object({ name: z.literal('businessConfirm'), facts: factsSchema });

/** The variables taking facts writes (a flow with `fact` steps keeps them). */
export const FACT_VARS = ['tone', 'hours'] as const;

/**
 * When the answer to a `fact` step says at least two things, or something else than the step's own, it is shown
 * for confirmation. True when it was.
 */
export async function offerFacts(turn: Turn, step: Step, text: string): Promise<boolean> {
  if (!step.fact || text.split(/\s+/).length < 4) return false;
  const facts = await turn.ports.model.readBusiness(text, turn.lang);
  const said = (Object.keys(facts) as Array<keyof BusinessFacts>).filter((k) => facts[k]);
  if (said.length === 0 || (said.length === 1 && said[0] === step.fact)) return false;
  return offer(turn, facts);
}

/** The facts with one corrected ("no, the tone should be professional"), when it is one the card shows. */
function correct(facts: BusinessFacts, field: Field, value: string): BusinessFacts | undefined {
  if (field === 'name' || field === 'description') return { ...facts, [field]: value };
  if (field === 'tone' && (TONES as readonly string[]).includes(value)) return { ...facts, tone: value as Tone };
  return undefined;
}

/** Shows what was understood, and waits for a yes. */
function offer(turn: Turn, facts: BusinessFacts): true {
  turn.setDialog({ name: 'businessConfirm', facts });
  turn.say('understood');
  turn.localAction('card', (l) => {
    const tone = facts.tone && l(TONE_TEXT[facts.tone]);
    return {
      title: l('understoodTitle'),
      info: [
        ...(facts.name ? [{ label: l('factName'), value: facts.name }] : []),
        ...(facts.description ? [{ label: l('factDescription'), value: facts.description }] : []),
        ...(tone ? [{ label: l('factTone'), value: tone }] : []),
        ...(facts.hours ? [{ label: l('factHours'), value: facts.hours }] : []),
      ],
    };
  });
  turn.localAction('buttons', (l) => ({
    buttons: [
      { label: l('understoodYes'), value: 'yes' },
      { label: l('understoodNoButton'), value: 'no' },
    ],
  }));
  return true;
}

/**
 * Takes confirmed facts: each fills the step that asks for it (its effects, its objective), the hours go to the
 * Spark; the Spark's instructions are written from all of it and the flow goes on with the first step still
 * unanswered.
 */
async function takeFacts(turn: Turn, current: Step, facts: BusinessFacts): Promise<void> {
  const ports = turn.ports;
  const filled = turn.flow.steps.filter((s) => s.fact && facts[s.fact]);
  turn.takingFacts = true;
  try {
    for (const step of filled) {
      await turn.apply(step, facts[step.fact!]!);
      if (step.objective) await ports.objectives.setStatus(step.id, 'completed');
    }
  } finally {
    turn.takingFacts = false;
  }
  if (facts.hours) {
    turn.setVar('hours', facts.hours);
    await ports.sparks.update({ hours: facts.hours });
  }
  if (facts.tone) turn.setVar('tone', facts.tone);
  const spark = await ports.sparks.current();
  if (spark) {
    const sysPrompt = await turn.writePrompt(spark);
    await ports.sparks.update({ sysPrompt });
    turn.say('understoodSaved');
    turn.inEveryLanguage((emit, lang) => promptCard(emit, lang, sysPrompt));
  }
  // On from the step it was asked at, past every step the facts answered.
  let next: string | null = current.id;
  for (let guard = 0; next && guard < 20; guard += 1) {
    const step = turn.step(next);
    if (!step?.fact || !facts[step.fact]) break;
    next = turn.nextOf(step, facts[step.fact]!);
  }
  await turn.askFrom(next);
}

export const businessConfirmDialog: Dialog<typeof confirming> = {
  schema: confirming,
  async reply(turn, { facts }) {
    const reading = await turn.read({ kind: 'confirm' }, turn.label('understood'));
    const step = turn.step(turn.state.step);
    if (!step) return false;
    // "No, the name is Espiga Bakery": the card again, with what was corrected.
    const corrected = reading.kind === 'change' && reading.field && correct(facts, reading.field, reading.value ?? '');
    if (corrected) return offer(turn, corrected);
    if (reading.kind === 'other') return askAgain(turn, 'understoodYes', 'understoodNoButton');
    if (reading.kind !== 'agree' && reading.kind !== 'disagree') return false;
    turn.setDialog(undefined);
    if (reading.kind === 'agree') await takeFacts(turn, step, facts);
    else {
      turn.say('understoodNo');
      const vars = await turn.vars();
      for (const line of step.say) turn.say(line, vars);
      await turn.widget(step);
    }
    return true;
  },
};
