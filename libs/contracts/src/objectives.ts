import { z } from 'zod';

export const objectivesKeyParams = z.object({
  key: z.union([z.enum(['deploy', 'profile', 'billing', 'profile-menu']), z.uuid()]),
});
export const objectivesQuery = z.object({ lang: z.enum(['es', 'en']).optional() });
export const updateObjectiveSchema = z.object({
  stepId: z.string().min(1).max(100),
  status: z.enum(['pending', 'completed', 'error']),
});

export const objectiveStepViewSchema = z.object({
  _id: z.string(),
  title: z.string(),
  status: z.enum(['pending', 'completed', 'error']),
});
export type ObjectiveStepView = z.infer<typeof objectiveStepViewSchema>;

export const objectiveGroupViewSchema = z.object({
  _id: z.string(),
  title: z.string(),
  status: z.enum(['pending', 'inProgress', 'completed', 'error']),
  steps: z.array(objectiveStepViewSchema),
});
export type ObjectiveGroupView = z.infer<typeof objectiveGroupViewSchema>;

/** `meta` of GET /objectives/{key}: the overall progress and the panel's title. */
export const objectivesMetaSchema = z.object({
  progress: z.number(),
  isCompleted: z.boolean(),
  title: z.string(),
  key: z.string(),
});
export type ObjectivesMeta = z.infer<typeof objectivesMetaSchema>;
