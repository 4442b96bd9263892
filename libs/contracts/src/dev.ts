import { z } from 'zod';

/** The dev outbox shows one recipient's mail: whoever reads it must already know the address. */
export const outboxQuerySchema = z.object({
  to: z.string().trim().min(1).max(320),
});

export const outboxMessageSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
