import { groupStatus, overallProgress, type GroupStatus } from './status';
import type { Flow, FlowEvent, Lang, StepStatus } from './types';

export interface ObjectiveView {
  _id: string;
  title: string;
  status: GroupStatus;
  steps: Array<{ _id: string; title: string; status: StepStatus }>;
}

/** A flow's objectives with their steps' statuses, in one language. */
export function objectivesOf(
  flow: Flow,
  statuses: Record<string, StepStatus>,
  language: Lang,
): { objectives: ObjectiveView[]; progress: number } {
  const objectives = (flow.objectives ?? []).map((o) => {
    const steps = flow.steps
      .filter((s) => s.objective === o.id)
      .map((s) => ({ _id: s.id, title: s.title?.[language] ?? s.id, status: statuses[s.id] ?? 'pending' }));
    return { _id: o.id, title: o.title[language], status: groupStatus(steps.map((s) => s.status)), steps };
  });
  return { objectives, progress: overallProgress(objectives.map((o) => o.steps.map((s) => s.status))) };
}

/** What a Spark is now, for the steps that follow its state rather than something that happened once. */
export interface SparkState {
  /** It has a deployment: published on /deploy. */
  published: boolean;
}

/** The events that are a state of the Spark: their steps are completed while the state holds. */
const STATE_EVENTS: Partial<Record<FlowEvent, (state: SparkState) => boolean>> = {
  'spark.deployed': (state) => state.published,
};

/**
 * A flow's step statuses as the api shows them and the worker's builder reads them: the stored ones, with
 * every step waiting for `spark.deployed` ("Deploy it" › "Publish your Spark") completed while the Spark is
 * published (docs/product.md §4). Derived, not stored: a Spark published before this rule counts too, and an
 * unpublished one is pending again. One rule for both processes (issue 14).
 */
export function withSparkState(
  flow: Flow,
  stored: Record<string, StepStatus>,
  state: SparkState | undefined,
): Record<string, StepStatus> {
  if (!state) return stored;
  const statuses = { ...stored };
  for (const step of flow.steps) {
    const holds = step.answer.kind === 'event' ? STATE_EVENTS[step.answer.event] : undefined;
    if (holds?.(state)) statuses[step.id] = 'completed';
  }
  return statuses;
}

/** The steps an event completes in a flow (a document read completes the knowledge step…). */
export function stepsCompletedBy(flow: Flow, event: string): string[] {
  return flow.steps.filter((s) => s.answer.kind === 'event' && s.answer.event === event).map((s) => s.id);
}
