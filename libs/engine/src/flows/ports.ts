/** What the flow engine needs from the outside (the worker implements it on the database) and what
 * it hands back: the adapter boundary of the flows. */

import type { ActionData } from '@sparks/contracts';
import type { BusinessFacts } from './business';
import type { ModelReading } from './understanding';
import type { FlowState } from './state';
import type { Lang, StepStatus } from './types';

/**
 * One message the assistant adds to the conversation: text, or an action whose data is a widget or an
 * event of `@sparks/contracts` (chat.ts), typed from its schema (engine.spec.ts checks them at run time).
 */
export type FlowOutput =
  | {
      type: 'ai';
      /** `i18n`: the text in each other language it reads otherwise in (the engine's own texts; issue 34 item 3). */
      data: { content: string; type?: string; i18n?: Partial<Record<Lang, { content: string }>> };
    }
  | { type: 'action'; data: ActionData };

export interface SparkInfo {
  id: string;
  name: string;
  initialMessage: string;
  language: Lang;
  sysPrompt: string;
  palette?: { name: string; primary: string; secondary: string };
  icon?: string;
  business?: string;
  description?: string;
  purpose?: string;
  tone?: string;
  /** Opening hours as the owner gave them. */
  hours?: string;
}

export interface Profile {
  firstname: string;
  lastname: string;
  username: string;
  language: Lang;
  plan: string;
}

/** A plan on sale, as the billing assistant shows it (the catalogue of the database). */
export interface PlanSummary {
  name: string;
  unitAmount: number;
  currency: string;
  interactions: number;
  deployments: number;
  sparks: number;
  documents: number;
  documentSharing: boolean;
}

/** The user's plan, usage, credits and trial, and the plans on sale (the billing assistant's cards). */
export interface BillingSummary {
  plan: string;
  /** A paid plan is held (a subscription). */
  paid: boolean;
  trialActive: boolean;
  trialDaysLeft: number;
  /** Interactions used this period, of `limit`. */
  usage: number;
  limit: number;
  /** Purchased interactions not spent yet. */
  credits: number;
  plans: PlanSummary[];
}

/** A published Spark, as the deploy assistant names it. */
export interface PublishedSpark {
  sparkId: string;
  name: string;
}

/** The signed-in user: their profile, their account and its plan. */
export interface AccountPort {
  profile(): Promise<Profile>;
  updateProfile(patch: Partial<Pick<Profile, 'firstname' | 'lastname' | 'language'>>): Promise<void>;
  /** The settings assistant's "deactivate my account". */
  deactivate(): Promise<void>;
  billing(): Promise<BillingSummary>;
}

/** What a new Spark is created with (the new-Spark assistant). */
export interface NewSpark {
  name: string;
  business: string;
  description: string;
  purpose: string;
  language: Lang;
  tone?: string;
  hours?: string;
}

/** The conversation's Spark (a builder chat's, or the one the new-Spark assistant creates). */
export interface SparkPort {
  current(): Promise<SparkInfo | undefined>;
  update(patch: Partial<Omit<SparkInfo, 'id'>>): Promise<void>;
  /** Creates the Spark; `{ limit }` when the user already has as many as their plan allows. */
  create(v: NewSpark): Promise<{ id: string; name: string } | { limit: number }>;
  /** The user's newest Spark (the chat home's "Open …"). */
  newest(): Promise<{ id: string; name: string } | undefined>;
}

/** The tests of the conversation's Spark. */
export interface TestsPort {
  count(): Promise<number>;
  /** Creates a test of the Spark (when it has room) and answers its id. */
  create(): Promise<string | undefined>;
}

/** The statuses of the flow's objective steps (per Spark, or per page). */
export interface ObjectivesPort {
  status(stepId: string): Promise<StepStatus | undefined>;
  setStatus(stepId: string, status: StepStatus): Promise<void>;
}

/** What the plan lets the owner publish now (the builder's "Publish" step). */
export interface DeployAllowance {
  /** Sparks the plan allows published at once (0 once a trial has ended without a plan). */
  limit: number;
  /** Sparks of the owner's published now. */
  used: number;
  /** The conversation's Spark is one of them. */
  published: boolean;
}

/** The user's published Sparks (the deploy assistant, the builder's last step). */
export interface DeployPort {
  allowance(): Promise<DeployAllowance>;
  /** The user's published Sparks, oldest publication first. */
  published(): Promise<PublishedSpark[]>;
  /**
   * Unpublishes one of the user's Sparks (its token stops working at once): the plan's deployments in
   * use and allowed afterwards, or undefined when it was not published.
   */
  unpublish(sparkId: string): Promise<{ used: number; limit: number } | undefined>;
  /** Kills the Spark's deploy token and its visitors' sessions at once (the deploy page shows the new code). */
  revokeToken(sparkId: string): Promise<boolean>;
}

/** The built-in help the assistants answer product questions from. */
export interface HelpPort {
  answer(question: string, language: Lang): Promise<string>;
}

/** What the language model does for the flows, with the rules standing in when there is none or it fails. */
export interface ModelPort {
  /** What a free text says about the business: the language model's reading when one is configured, else the rules. */
  readBusiness(text: string, language: Lang): Promise<BusinessFacts>;
  /**
   * The part of the Spark's instructions about the business, written by the language model from the
   * Spark's facts (`instructionFacts` of prompt.ts); undefined without a model or when it fails. The
   * engine puts it between the template's fixed first sentence and rules only when it passes
   * `cleanInstructions`, and uses the template alone otherwise.
   */
  writeInstructions(spark: SparkInfo): Promise<string | undefined>;
  /**
   * What a reply means, read by the language model when the offline rules are not sure of it (understanding/):
   * `instructions` say what to answer, `step` what the reply answers. Undefined without a model or when it fails or
   * answers nothing usable; the rules' reading then stands.
   */
  readReply(input: {
    instructions: string;
    step: Record<string, unknown>;
    reply: string;
  }): Promise<ModelReading | undefined>;
}

/** What a flow may read and change, one port per concern; the worker implements them on the database. */
export interface FlowPorts {
  account: AccountPort;
  sparks: SparkPort;
  tests: TestsPort;
  objectives: ObjectivesPort;
  deploy: DeployPort;
  help: HelpPort;
  model: ModelPort;
  /** The Spark's SharePoint / OneDrive connection (builder chats in a worker with Microsoft configured). */
  sharing?: SharingPorts;
}

// — document sharing: the builder's browser over SharePoint and OneDrive (issue 20) —

/** A place of Microsoft 365 the browser can show: the sites, a site's libraries, a folder (a drive's root without item). */
export type SharingPlace =
  | { kind: 'sites' }
  | { kind: 'site'; siteId: string }
  | { kind: 'onedrive' }
  | { kind: 'folder'; driveId: string; itemId?: string };

/** One line of a place: somewhere to open, a file to pick, or a file listed as not readable (with why). */
export interface SharingEntry {
  name: string;
  kind: 'open' | 'pick' | 'unreadable';
  /** `open`: where it leads. */
  place?: SharingPlace;
  /** `pick`: the file. */
  file?: { driveId: string; itemId: string };
  /** `unreadable`: not a PDF or .docx, or over the upload size. */
  reason?: 'type' | 'size';
}

export type SharingService = 'sharepoint' | 'onedrive';

/** Where a picked file is: its SharePoint site and library (none in a OneDrive), its folders and its name. */
export interface SharingWhere {
  site?: string;
  library?: string;
  folders: string[];
  name: string;
}

/**
 * The Spark's Microsoft 365 connection as the builder chat uses it. Every call works on the connection of this
 * user's Spark only (looked up from the conversation, never from what was typed).
 */
export interface SharingPorts {
  /** Whether the browser can run: the server configured, the plan allowing it, the Spark connected. */
  status(): Promise<
    { status: 'ready'; service: SharingService } | { status: 'notConfigured' | 'notAllowed' | 'notConnected' }
  >;
  /** The entries of a place, folders first, then by name (at most a few hundred). */
  list(place: SharingPlace): Promise<{ entries: SharingEntry[] } | { error: 'reconnect' | 'failed' | 'notFound' }>;
  /**
   * Queues the import of a file found at `where` (the site, the library, the folders down to it: its path as people
   * read it, `Sites/Bakery/Menu.pdf`); `limit` when the Spark already holds as many documents as the plan allows.
   */
  importFile(
    file: { driveId: string; itemId: string },
    where: SharingWhere,
  ): Promise<{ status: 'queued' } | { status: 'limit'; limit: number } | { status: 'notConnected' | 'notFound' }>;
}

export interface RunContext {
  language: Lang;
  /** The conversation's stored state, as it was saved (any version, or nothing): the engine reads it (state.ts). */
  state: unknown;
  ports: FlowPorts;
}

export interface RunResult {
  outputs: FlowOutput[];
  state: FlowState;
}
