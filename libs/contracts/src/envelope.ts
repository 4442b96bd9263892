import { z } from 'zod';

/** docs/product.md §7: success bodies are `{ data }`; failures are `{ statusCode, errors: [...] }`. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const errorEnvelopeSchema = z.object({
  statusCode: z.number().int(),
  errors: z.array(apiErrorSchema).min(1),
  correlationId: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export interface DataEnvelope<T> {
  data: T;
}

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down']),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

/** Liveness: the process answers. Nothing it depends on is asked. */
export const livenessSchema = z.object({ status: z.literal('ok'), version: z.string() });
export type Liveness = z.infer<typeof livenessSchema>;

/** Readiness: PostgreSQL and Redis answer and every committed migration is applied (503 otherwise). */
export const readinessSchema = healthSchema.extend({
  migrations: z.enum(['applied', 'pending', 'unknown']),
});
export type Readiness = z.infer<typeof readinessSchema>;
