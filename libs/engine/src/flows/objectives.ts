import { groupStatus, overallProgress, type GroupStatus } from './status';
import type { Flow, Lang, StepStatus } from './types';

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

/** The steps an event completes in a flow (a document read completes the knowledge step…). */
export function stepsCompletedBy(flow: Flow, event: string): string[] {
  return flow.steps.filter((s) => s.answer.kind === 'event' && s.answer.event === event).map((s) => s.id);
}
