import type { StepStatus } from './types';

export type GroupStatus = 'pending' | 'inProgress' | 'completed' | 'error';

/**
 * docs/product.md §4: completed if all steps are completed; error if all are in error; inProgress if any is
 * completed or in error (but not all in error); pending otherwise.
 */
export function groupStatus(steps: StepStatus[]): GroupStatus {
  if (steps.length > 0 && steps.every((s) => s === 'completed')) return 'completed';
  if (steps.length > 0 && steps.every((s) => s === 'error')) return 'error';
  if (steps.some((s) => s === 'completed' || s === 'error')) return 'inProgress';
  return 'pending';
}

/** The rounded percentage of completed steps across all groups. */
export function overallProgress(groups: StepStatus[][]): number {
  const all = groups.flat();
  if (all.length === 0) return 0;
  return Math.round((100 * all.filter((s) => s === 'completed').length) / all.length);
}
