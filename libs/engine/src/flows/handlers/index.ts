/**
 * The one place where the engine's handlers are registered: every intent a flow may name (`intents[].action`),
 * every dialog a handler may open (its state's `name`), every effect a step may name. A flow that names an intent
 * or an effect with no handler here is refused when the engine is built (`assertHandlers`), so a worker that could
 * not answer it does not start — as `libs/queues` does for jobs.
 */

import { z } from 'zod';
import type { EffectHandler, IntentHandler, Turn } from '../turn';
import type { Effect, Flow } from '../types';
import { deployConfirmDialog, deployWhichDialog, rotateToken, unpublish } from './deploy';
import { EFFECTS, type EffectName } from './effects';
import { businessConfirmDialog, FACT_VARS } from './facts';
import { editPrompt, promptConfirmDialog, promptDialog, showPrompt, undoPrompt } from './prompt';
import { browseDialog, browseSharing } from './sharing';
import { newTest, testNotSatisfactory, testSatisfactory } from './tests';
import { valueConfirmDialog } from './value';

const restart: IntentHandler = {
  run(turn) {
    turn.state.step = turn.flow.start;
    return turn.askFrom(turn.flow.start);
  },
};

export const INTENTS = {
  showPrompt,
  editPrompt,
  undoPrompt,
  testSatisfactory,
  testNotSatisfactory,
  newTest,
  restart,
  unpublish,
  rotateToken,
  browseSharing,
} satisfies Record<string, IntentHandler>;
export type IntentName = keyof typeof INTENTS;

const DIALOGS = {
  prompt: promptDialog,
  promptConfirm: promptConfirmDialog,
  valueConfirm: valueConfirmDialog,
  businessConfirm: businessConfirmDialog,
  deployWhich: deployWhichDialog,
  deployConfirm: deployConfirmDialog,
  browse: browseDialog,
} as const;

/** The pending dialog's part of a flow's state: one of the registered dialogs' own schemas. */
export const dialogStateSchema = z.discriminatedUnion('name', [
  promptDialog.schema,
  promptConfirmDialog.schema,
  valueConfirmDialog.schema,
  businessConfirmDialog.schema,
  deployWhichDialog.schema,
  deployConfirmDialog.schema,
  browseDialog.schema,
]);
export type DialogState = z.infer<typeof dialogStateSchema>;

/** The dialog registered for a pending dialog's state (its `name`). */
export function dialogFor(state: DialogState): {
  reply(turn: Turn, state: DialogState, text: string): Promise<boolean>;
  resume?(turn: Turn, state: DialogState): Promise<boolean>;
} {
  // Each registered dialog takes the state its own schema reads, which `name` selects.
  return DIALOGS[state.name];
}

export { EFFECTS };

const effectName = (e: Effect): string => ('do' in e ? e.do : e.set);
const has = (registry: object, name: string) => Object.hasOwn(registry, name);

/**
 * The variables a flow keeps: those its steps set (`{ set: 'var' }`), and those its intents' and effects'
 * handlers write, and the facts' when it has steps that read the business.
 */
export function varsOf(flow: Flow): string[] {
  const out = new Set<string>();
  for (const step of flow.steps) {
    for (const effect of step.effects ?? []) {
      if ('set' in effect && effect.set === 'var') out.add(effect.key);
      const name = effectName(effect);
      if (has(EFFECTS, name))
        for (const key of (EFFECTS[name as EffectName] as EffectHandler).writes ?? []) out.add(key);
    }
    if (step.fact) for (const key of FACT_VARS) out.add(key);
  }
  for (const intent of flow.intents ?? []) {
    if (has(INTENTS, intent.action)) for (const key of INTENTS[intent.action].writes ?? []) out.add(key);
  }
  return [...out].sort();
}

/** Throws when a flow names an intent or an effect that has no handler: an engine that cannot run it must not start. */
export function assertHandlers(flows: Flow[]): void {
  const missing: string[] = [];
  for (const flow of flows) {
    for (const intent of flow.intents ?? [])
      if (!has(INTENTS, intent.action)) missing.push(`${flow.name}: intent ${intent.action}`);
    for (const step of flow.steps)
      for (const effect of step.effects ?? [])
        if (!has(EFFECTS, effectName(effect))) missing.push(`${flow.name}/${step.id}: effect ${effectName(effect)}`);
  }
  if (missing.length > 0) throw new Error(`No handler for: ${missing.join(', ')}`);
}
