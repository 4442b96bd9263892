/**
 * What a handler sees of the turn being run (run.ts implements it), and the three kinds of handlers the engine
 * registers in one place (handlers/index.ts): an intent (a phrase that acts from any step), a dialog (a short
 * exchange that holds the conversation until it is answered: a confirmation, a choice, a browser) and an effect
 * (what a step's answer changes).
 */

import type { ActionData } from '@sparks/contracts';
import type { z } from 'zod';
import type { FlowPorts, SparkInfo } from './ports';
import type { DialogState, FlowState } from './state';
import type { FlowTextKey } from './texts';
import type { Flow, FlowEvent, I18n, Intent, Lang, Step, StepStatus } from './types';
import type { Ask, Reading } from './understanding';
import type { ActionFields, Emit } from './widgets';

/** One of the engine's texts (or a flow's) as a label in one language. */
export type Labeler = (text: FlowTextKey | I18n, vars?: Record<string, string>) => string;

export interface Turn {
  readonly flow: Flow;
  readonly state: FlowState;
  readonly ports: FlowPorts;
  /** The language of the reply (the profile assistant's language step changes it mid-turn). */
  lang: Lang;
  /** An effect refused (the plan's Spark limit): the flow stays on the step that applied it. */
  halted: boolean;
  /** Confirmed facts are being taken: their steps' `buildSysPrompt` waits for all of them (one model call). */
  takingFacts: boolean;

  /** Adds a markdown message (nothing when blank). */
  text(content: string): void;
  /** Adds one of the engine's texts (or a flow's), the values escaped. */
  say(text: FlowTextKey | I18n, vars?: Record<string, string>): void;
  /** One of the engine's texts (or a flow's) as markdown, without adding it: the values escaped. */
  markdown(text: FlowTextKey | I18n, vars?: Record<string, string>): string;
  /** One of the engine's texts (or a flow's) as a label (buttons, cards): the values as they are. */
  label(text: FlowTextKey | I18n, vars?: Record<string, string>): string;
  readonly action: Emit;
  /**
   * An action whose texts are labels, rendered in every language (the reply's as sent, the others in its `i18n`):
   * the chat shows it in the interface's language, whichever it switches to (issue 34 item 3).
   */
  localAction<T extends ActionData['type']>(type: T, build: (label: Labeler, lang: Lang) => ActionFields<T>): void;
  /** The action messages `render` emits, rendered in every language the same way (cards with texts). */
  inEveryLanguage(render: (emit: Emit, lang: Lang) => void): void;
  /** Yes / no buttons with two of the engine's texts. */
  yesNoButtons(yes: FlowTextKey, no: FlowTextKey): void;

  /** A variable the flow keeps; only those its handlers declare (state.ts) survive the turn. */
  setVar(key: string, value: string): void;
  /** The values texts may name: the state's variables, the user's first name, the Spark's name… */
  vars(): Promise<Record<string, string>>;
  /** The pending dialog, if any (its state as the dialog's schema describes it). */
  setDialog(dialog: DialogState | undefined): void;

  step(id: string | null): Step | undefined;
  nextOf(step: Step, value: string): string | null;
  /** Says the step (and the ones after it that need no answer), and waits there. */
  askFrom(stepId: string | null): Promise<void>;
  /**
   * What the message means as an answer to `ask` (understanding/): the offline rules' reading, or the language
   * model's when the rules are not sure and a model is configured. `question`: what the reply answers, for the model.
   */
  read(ask: Ask, question?: string): Promise<Reading>;
  /** The step's answer widget (`vars`: the texts' values, when they were just read). */
  widget(step: Step, vars?: Record<string, string>): Promise<void>;
  /** The current step's buttons again (the used ones are disabled): the next thing is one click away. */
  offerAgain(): Promise<void>;
  /** Takes `value` as the answer to `step`: its effects, its objective, its confirmation, the next step. */
  take(step: Step, value: string): Promise<void>;
  /** Applies the step's effects with `value`. */
  apply(step: Step, value: string): Promise<void>;
  /** Marks the steps waiting for `event`; moves the conversation past the one it is on. */
  completeEvent(event: FlowEvent, status: StepStatus): Promise<void>;
  /** The intent a message triggers, if any. */
  intent(text: string): Intent | undefined;
  /** The Spark's instructions from its facts (the model's part when it wrote a usable one, else the template). */
  writePrompt(spark: SparkInfo): Promise<string>;
}

/** A phrase that acts from any step ("show instructions", "unpublish"). */
export interface IntentHandler {
  run(turn: Turn, text: string): Promise<void>;
  /** The flow variables it writes (state.ts keeps only declared ones). */
  writes?: readonly string[];
}

/**
 * A short exchange that holds the conversation: the next message goes to it first. `reply` answers true when the
 * message was its answer; false leaves the message to the flow (the dialog is then dropped).
 */
export interface Dialog<Schema extends DialogSchema = DialogSchema> {
  /** The dialog's part of the stored state (its `name` and data), checked when it is read back. */
  schema: Schema;
  reply(turn: Turn, state: z.infer<Schema>, text: string): Promise<boolean>;
  /** The hidden start keyword while it waits (the page reloaded, a document was read): true when handled. */
  resume?(turn: Turn, state: z.infer<Schema>): Promise<boolean>;
}
type DialogSchema = z.ZodObject<{ name: z.ZodLiteral<string> } & z.ZodRawShape>;

/** What a step's answer changes (`effects` of a step). */
export interface EffectHandler {
  /** `key`: the effect's own parameter (the variable of `{ set: 'var' }`, the option of `spark.option`). */
  apply(turn: Turn, value: string, key: string | undefined): Promise<void>;
  writes?: readonly string[];
}
