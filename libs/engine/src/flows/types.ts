/** Flows are data: objectives (groups) of steps, each step saying what to ask, how to read the
 * answer and what it changes. The engine (engine.ts, run.ts) interprets them; adding a flow is adding a
 * definition; the intents and effects it names are handlers registered in handlers/index.ts. */

import type { ObjectivesPage } from '@sparks/contracts';
import type { Lang } from '../texts';
import type { EffectName, SparkOption } from './handlers/effects';
import type { IntentName } from './handlers';
import type { Field } from './understanding';

export type { Lang };
/** A text in every language (`texts(key)` of `@sparks/core` makes one from the catalogues). */
export type I18n = Record<Lang, string>;

export type StepStatus = 'pending' | 'completed' | 'error';

/** Something that happens elsewhere and completes a step (an upload read, a test judged…). */
export type FlowEvent = 'document.completed' | 'test.created' | 'test.satisfactory' | 'spark.deployed';

export interface Choice {
  value: string;
  label: I18n;
  /** More words people may type for this choice. */
  synonyms?: string[];
  /** A route of the app the button opens (`/spark/{sparkId}`), or an external link. */
  goto?: string;
  link?: string;
  /** Shown only when the condition holds. */
  when?: Condition;
}

/**
 * `hasDeployments`: the user has a Spark published (the deploy assistant's unpublish and new code). `canPublish`: the
 * plan lets this Spark be published (it is, or there is room); else `publishNotIncluded` (the plan allows none) or
 * `publishFull` (its places are all taken), both `cannotPublish`.
 */
export type Condition =
  'hasSparks' | 'hasTests' | 'hasDeployments' | 'canPublish' | 'cannotPublish' | 'publishNotIncluded' | 'publishFull';

/** A message a step says; `when`: only while the condition holds. */
export type Line = I18n & { when?: Condition };

/** How the answer to a step is read. Every kind works without a language model. */
export type AnswerSpec =
  /**
   * `keep`: the label of a "keep the current value" button; it, and agreement or refusal phrases ("that's
   * fine", "no"), keep the value instead of becoming it. `name`: a value that does not look like a name (a
   * sentence, a question) is confirmed before it is used.
   */
  | { kind: 'text'; min?: number; max?: number; keep?: I18n; name?: boolean }
  | { kind: 'choice'; choices: Choice[]; widget?: 'options' | 'buttons' | 'onboarding' }
  | { kind: 'yesno' }
  | { kind: 'language' }
  | { kind: 'palette' }
  | { kind: 'icon' }
  /** Waits for an event; typing "skip" moves on when allowed. */
  | { kind: 'event'; event: FlowEvent; skippable: boolean; choices?: Choice[] }
  /** Nothing to answer: say and move on. */
  | { kind: 'none' }
  /**
   * Free questions answered from the built-in help; the step stays. `quietFirst`: the choices are not shown
   * when the step is first asked (the page offers them right above it), only after a help answer.
   */
  | { kind: 'help'; choices: Choice[]; quietFirst?: boolean };

/**
 * What an answer changes: an effect registered in handlers/effects.ts. `set` takes the answer as a value (into a
 * flow variable, the profile, the Spark), `do` acts (creates the Spark, writes its instructions…).
 */
export type Effect =
  | { set: 'var'; key: string }
  | { set: 'spark.option'; key: SparkOption }
  | { set: Exclude<EffectName, 'var' | 'spark.option'> }
  | { do: EffectName };

export interface Step {
  id: string;
  /** The objective (group) the step belongs to; steps without one are not shown in the panel. */
  objective?: string;
  /** The step's name in the objectives panel. */
  title?: I18n;
  /** What the assistant says, one message each; `{placeholders}` come from the context. */
  say: Line[];
  answer: AnswerSpec;
  /** A widget shown after the text, for steps whose answer needs one (card, userCard, preview). */
  show?: 'userCard' | 'widgetPreview' | 'sysPromptCard' | 'explainSparks' | 'usageCard' | 'plansCard';
  effects?: Effect[];
  /** The next step: one id, or by answer value (`*` for any other); null ends the flow. */
  next: string | null | Record<string, string | null>;
  /** Said once the answer is taken. */
  confirm?: I18n;
  /** Already answered when the Spark has this option (given in /new-spark): done without asking. */
  givenBy?: 'business' | 'description' | 'tone';
  /**
   * What the step asks about the business. An answer that tells more than that ("We are Espiga, a bakery
   * in Madrid, open…") is read as a whole (business.ts, or the language model): what it says is shown
   * for confirmation and then fills every step it answers at once.
   */
  fact?: 'name' | 'description' | 'tone';
  /**
   * The value of the Spark the step sets: "change the name to Espiga", "mejor verde" from any step of the flow is
   * taken by this step (handlers/change.ts).
   */
  field?: Field;
  /** Said when the owner asks about the step ("what should I write here?"), before the question again. */
  hint?: I18n;
}

export interface Intent {
  /** Normalized phrases (no accents, lower case) that trigger it from any step. */
  phrases: string[];
  /** Its handler (handlers/index.ts). */
  action: IntentName;
}

export interface Flow {
  name: string;
  /** Where the objectives of this flow are kept: per Spark, or per page. */
  objectivesKey?: 'spark' | ObjectivesPage;
  objectives?: Array<{ id: string; title: I18n }>;
  start: string;
  steps: Step[];
  intents?: Intent[];
}
