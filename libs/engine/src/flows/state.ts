/**
 * A conversation's flow state as it is stored (`conversations.state`, JSON): versioned, and checked against the
 * flow's own schema when it is read back. Version 2 keeps the flow's variables (only those its steps and handlers
 * declare: handlers/index.ts `varsOf`) and the pending dialog as the dialog's own schema describes it. Version 1
 * (before issue 31: an `awaiting` name, with the dialog's data as strings of JSON among the variables) is read and
 * migrated, so conversations started before keep working.
 */

import { z } from 'zod';
import { dialogStateSchema, varsOf, type DialogState } from './handlers';
import type { Flow } from './types';

export type { DialogState };

export const STATE_VERSION = 2;

export type FlowState = {
  v: typeof STATE_VERSION;
  flow: string;
  /** The step the conversation waits on; null once the flow has ended. */
  step: string | null;
  vars: Record<string, string>;
  /** A dialog that holds the conversation (a confirmation, a choice, the file browser). */
  dialog?: DialogState;
  /** The Spark the conversation created (the new-Spark assistant). */
  sparkId?: string;
};

/** A flow's state schema: its variables, one optional string each, and the registered dialogs. */
export function stateSchemaOf(flow: Flow): z.ZodType<FlowState> {
  const vars = Object.fromEntries(varsOf(flow).map((key) => [key, z.string().optional()]));
  return z.object({
    v: z.literal(STATE_VERSION),
    flow: z.literal(flow.name),
    step: z.string().nullable(),
    // Only the declared variables are kept (`strip`), each a string.
    vars: z.object(vars).strip().pipe(z.record(z.string(), z.string())),
    dialog: dialogStateSchema.optional(),
    sparkId: z.string().optional(),
  });
}

/** Version 1, as stored until issue 31. */
const legacySchema = z.object({
  flow: z.string(),
  step: z.string().nullable(),
  vars: z.record(z.string(), z.string()).default({}),
  awaiting: z
    .enum(['prompt', 'promptConfirm', 'valueConfirm', 'businessConfirm', 'deployWhich', 'deployConfirm', 'browse'])
    .optional(),
  sparkId: z.string().optional(),
});
type LegacyState = z.infer<typeof legacySchema>;

function json(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The dialog a version-1 state was waiting in, from its `awaiting` and the variables that held its data. */
function legacyDialog({ awaiting, vars }: LegacyState): unknown {
  const action = vars.deployAction === 'rotate' ? 'rotate' : 'unpublish';
  switch (awaiting) {
    case undefined:
      return undefined;
    case 'prompt':
      return { name: awaiting };
    case 'promptConfirm':
      return { name: awaiting, draft: vars.draftPrompt ?? '' };
    case 'valueConfirm':
      return { name: awaiting, draft: vars.draftValue ?? '' };
    case 'businessConfirm':
      return { name: awaiting, facts: json(vars.draftFacts) ?? {} };
    case 'deployWhich':
      return { name: awaiting, action };
    case 'deployConfirm':
      return { name: awaiting, action, sparkId: vars.deploySparkId, sparkName: vars.deploySparkName ?? '' };
    case 'browse':
      return { name: awaiting, browse: json(vars.browse) };
  }
}

/**
 * The stored state of `flow`, read with its schema; a version-1 state is migrated. Undefined when there is none,
 * when it belongs to another flow, or when it cannot be read (the conversation then starts the flow afresh).
 */
export function readState(raw: unknown, flow: Flow, schema = stateSchemaOf(flow)): FlowState | undefined {
  if (!raw || typeof raw !== 'object' || (raw as { flow?: unknown }).flow !== flow.name) return undefined;
  if ((raw as { v?: unknown }).v === STATE_VERSION) {
    const current = schema.safeParse(raw);
    return current.success ? current.data : undefined;
  }
  const legacy = legacySchema.safeParse(raw);
  if (!legacy.success) return undefined;
  const { flow: name, step, vars, sparkId } = legacy.data;
  const dialog = dialogStateSchema.safeParse(legacyDialog(legacy.data));
  const migrated = schema.safeParse({
    v: STATE_VERSION,
    flow: name,
    step,
    vars,
    ...(dialog.success ? { dialog: dialog.data } : {}),
    ...(sparkId ? { sparkId } : {}),
  });
  return migrated.success ? migrated.data : undefined;
}
