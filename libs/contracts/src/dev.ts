import { z } from 'zod';

export const outboxQuerySchema = z.object({
  to: z.string().trim().min(1).max(320).optional(),
});

export const outboxMessageSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
