import { z } from 'zod';

export const objectivesKeyParams = z.object({
  key: z.union([z.enum(['deploy', 'profile', 'billing', 'profile-menu']), z.uuid()]),
});
export const objectivesQuery = z.object({ lang: z.enum(['es', 'en']).optional() });
export const updateObjectiveSchema = z.object({
  stepId: z.string().min(1).max(100),
  status: z.enum(['pending', 'completed', 'error']),
});

export interface ObjectiveStepView {
  _id: string;
  title: string;
  status: 'pending' | 'completed' | 'error';
}

export interface ObjectiveGroupView {
  _id: string;
  title: string;
  status: 'pending' | 'inProgress' | 'completed' | 'error';
  steps: ObjectiveStepView[];
}

/** `meta` of GET /objectives/{key}: the overall progress and the panel's title. */
export interface ObjectivesMeta {
  progress: number;
  isCompleted: boolean;
  title: string;
  key: string;
}
