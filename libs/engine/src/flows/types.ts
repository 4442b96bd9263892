/** Flows are data: objectives (groups) of steps, each step saying what to ask, how to read the
 * answer and what it changes. The engine (engine.ts) interprets them; adding a flow is adding a
 * definition. */

import type { ObjectivesPage } from '@sparks/contracts';
import type { Lang } from '../texts';

export type { Lang };
export interface I18n {
  es: string;
  en: string;
}

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

/** `hasDeployments`: the user has a Spark published (the deploy assistant's unpublish and new code). */
export type Condition = 'hasSparks' | 'hasTests' | 'hasDeployments';

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

/** What an answer changes. A fixed vocabulary, so that flows stay data. */
export type Effect =
  | { set: 'profile.firstname' | 'profile.lastname' | 'profile.language' }
  | { set: 'spark.name' | 'spark.initialMessage' | 'spark.language' | 'spark.palette' | 'spark.icon' }
  | { set: 'spark.option'; key: 'business' | 'description' | 'purpose' | 'tone' }
  | { set: 'var'; key: string }
  | { do: 'createSpark' }
  | { do: 'buildSysPrompt' }
  | { do: 'deactivateAccount' }
  | { do: 'createTest' };

export interface Step {
  id: string;
  /** The objective (group) the step belongs to; steps without one are not shown in the panel. */
  objective?: string;
  /** The step's name in the objectives panel. */
  title?: I18n;
  /** What the assistant says, one message each; `{placeholders}` come from the context. */
  say: I18n[];
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
}

export interface Intent {
  /** Normalized phrases (no accents, lower case) that trigger it from any step. */
  phrases: string[];
  action:
    | 'showPrompt'
    | 'editPrompt'
    | 'undoPrompt'
    | 'testSatisfactory'
    | 'testNotSatisfactory'
    /** Create a test of the Spark from any step (offered after a test that went badly). */
    | 'newTest'
    | 'restart'
    /** The deploy assistant: unpublish a Spark, or kill its deploy token for a new one (with confirmation). */
    | 'unpublish'
    | 'rotateToken'
    /** The builder: browse the Spark's SharePoint or OneDrive and pick files to import (issue 20). */
    | 'browseSharing';
}

export interface Flow {
  name: string;
  /** Where the objectives of this flow are kept: per Spark, or per page. */
  objectivesKey?: 'spark' | ObjectivesPage;
  objectives?: Array<{ id: string; title: I18n }>;
  start: string;
  steps: Step[];
  intents?: Intent[];
  /** Steps completed by events, with the event. */
}

export interface FlowState {
  flow: string;
  step: string | null;
  vars: Record<string, string>;
  /**
   * A pending intent that needs the next message: the new system prompt, its confirmation (the draft in
   * `vars.draftPrompt`), the confirmation of an unusual value for the current step (`vars.draftValue`), or
   * of what a free description of the business said (`vars.draftFacts`, JSON); in the deploy assistant,
   * which published Spark to unpublish or give a new code (`vars.deployAction`), then the confirmation
   * (`vars.deploySparkId`, `vars.deploySparkName`).
   * While browsing SharePoint or OneDrive (`browse`): where, and what the shown page offers (`vars.browse`, JSON).
   */
  awaiting?:
    'prompt' | 'promptConfirm' | 'valueConfirm' | 'businessConfirm' | 'deployWhich' | 'deployConfirm' | 'browse';
  sparkId?: string;
}
