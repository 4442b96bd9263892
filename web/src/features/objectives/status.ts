import type { ObjectiveGroupView, ObjectiveStepView } from '@sparks/contracts';

export type GroupStatus = ObjectiveGroupView['status'];

/**
 * docs/product.md §4 objective group status: completed if every step is; error if every step is in error; in progress
 * if any step is completed or in error; pending otherwise.
 */
export function groupStatus(steps: readonly Pick<ObjectiveStepView, 'status'>[]): GroupStatus {
  if (steps.length > 0 && steps.every((step) => step.status === 'completed')) return 'completed';
  if (steps.length > 0 && steps.every((step) => step.status === 'error')) return 'error';
  if (steps.some((step) => step.status === 'completed' || step.status === 'error')) return 'inProgress';
  return 'pending';
}

/** docs/product.md §4 overall progress: the rounded percentage of completed steps across all groups. */
export function overallProgress(groups: readonly Pick<ObjectiveGroupView, 'steps'>[]): number {
  const steps = groups.flatMap((group) => group.steps);
  if (steps.length === 0) return 0;
  return Math.round((100 * steps.filter((step) => step.status === 'completed').length) / steps.length);
}
