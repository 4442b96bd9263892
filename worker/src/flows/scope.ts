import { objectivesKey } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import type {
  AccountsRepository,
  AdminRepository,
  BillingRepository,
  DeployRepository,
  ObjectivesRepository,
  SparksRepository,
} from '@sparks/db';
import type { SparkRules, SparkTestRules } from '@sparks/domain';
import type { Flow, HelpSources, LlmProvider } from '@sparks/engine';
import type { SharingDeps } from './sharing-ports';

/** What the ports work with, gathered by `FlowPortsFactory` from DI. */
export interface PortDeps {
  accounts: AccountsRepository;
  sparks: SparksRepository;
  objectives: ObjectivesRepository;
  admin: AdminRepository;
  billing: BillingRepository;
  deploy: DeployRepository;
  /** The rules the api's services follow too (`@sparks/domain`). */
  sparkRules: SparkRules;
  testRules: SparkTestRules;
  /** What the help articles read: the plans' catalogue and the search port's lexemes. */
  help: HelpSources;
  /** The configured language model, if any. */
  llm?: LlmProvider;
  /** Told when the model failed and the rules (or the template of the instructions) did the work instead. */
  onLlmError?: (err: unknown) => void;
  /** SharePoint / OneDrive (issue 20): the builder chat's browser, for a Spark's conversation. */
  sharing?: SharingDeps;
}

/**
 * Whose conversation the ports serve: one user, one flow and (maybe) one Spark — shared by every port, so that the
 * Spark the new-Spark assistant creates is the one the next port call works on.
 */
export interface Scope {
  readonly deps: PortDeps;
  readonly userId: string;
  readonly flow: Flow;
  sparkId: string | null;
}

/** The key of the scope's objectives (`objectivesKey`, one rule with the api and the web). */
export function objectivesKeyOf(scope: Scope): string | null {
  const kind = scope.flow.objectivesKey;
  if (kind === undefined) return null;
  if (kind === 'spark') return scope.sparkId ? objectivesKey({ kind: 'spark', sparkId: scope.sparkId }) : null;
  return objectivesKey({ kind: 'page', page: kind });
}

/** Runs a rule on a Spark that may have gone meanwhile: NOT_FOUND is undefined, and the flow goes on. */
export async function unlessGone<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return undefined;
    throw err;
  }
}
