/**
 * "Change the name to Espiga", "mejor verde", "el segundo color" — at any step (issue 31): the step of the flow that
 * sets that value takes it (its effects, its objective), the owner is told, and the conversation goes on where it
 * was. At that very step it is simply the answer.
 */

import { PALETTES, ICONS } from '../theme';
import type { Turn } from '../turn';
import type { Step } from '../types';
import type { Field, Reading } from '../understanding';
import { FIELD_CHOICES } from '../understanding';
import { EFFECTS } from './effects';
import type { FlowTextKey } from '../texts';

/** How the field is named in "Done: the … is now …". */
const FIELD_NAMES: Record<Field, FlowTextKey> = {
  name: 'fieldName',
  greeting: 'fieldGreeting',
  description: 'fieldDescription',
  palette: 'fieldPalette',
  icon: 'fieldIcon',
  tone: 'fieldTone',
  language: 'fieldLanguage',
};

/** The value as the owner reads it: a palette's or an icon's name, a tone or a language in words. */
function shown(turn: Turn, field: Field, value: string): string {
  const choice = FIELD_CHOICES[field]?.find((c) => c.value === value);
  if (field === 'palette') return turn.label(PALETTES.find((p) => p.id === value)!.name);
  if (field === 'icon') return turn.label(ICONS.find((i) => i.id === value)!.name);
  return choice ? turn.label(choice.label) : value;
}

/** Whether `value` may be the answer to `step` (its choices, its lengths); the reason it may not. */
function refused(step: Step, value: string): { key: FlowTextKey; vars?: Record<string, string> } | undefined {
  const spec = step.answer;
  if (spec.kind === 'text') {
    if (spec.min && value.length < spec.min) return { key: 'tooShort', vars: { min: String(spec.min) } };
    if (spec.max && value.length > spec.max) return { key: 'tooLong', vars: { max: String(spec.max) } };
  }
  return undefined;
}

/** Applies a change; false when the flow has no step for that value (the reply is then read as usual). */
export async function applyChange(turn: Turn, reading: Reading): Promise<boolean> {
  const field = reading.field;
  const value = reading.value?.trim();
  const step = field && turn.flow.steps.find((s) => s.field === field);
  if (!field || !value || !step) return false;
  const why = refused(step, value);
  if (why) {
    turn.text(turn.markdown('reask') + turn.markdown(why.key, why.vars));
    return true;
  }
  if (turn.state.step === step.id) {
    await turn.take(step, value);
    return true;
  }
  await turn.apply(step, value);
  if (turn.halted) return true;
  if (step.objective) await turn.ports.objectives.setStatus(step.id, 'completed');
  // The description is part of the instructions: they are written again with it.
  if (field === 'description') await EFFECTS.buildSysPrompt.apply(turn, value, undefined);
  turn.say('changed', { field: turn.label(FIELD_NAMES[field]), value: shown(turn, field, value) });
  await turn.askFrom(turn.state.step);
  return true;
}
