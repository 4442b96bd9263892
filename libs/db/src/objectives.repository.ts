import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from './client';
import { objectives, type StepStatus } from './schema/index';

export type ObjectivesRow = typeof objectives.$inferSelect;

/**
 * Sets one step's status (creating the record on first use); atomic per step. On the pool, or inside a caller's
 * transaction (the billing fulfilment marks its step with the purchase).
 */
export async function setObjectiveStep(
  db: Executor,
  v: { userId: string; key: string; flow: string; stepId: string; status: StepStatus; sparkId?: string | null },
): Promise<ObjectivesRow> {
  const patch = JSON.stringify({ [v.stepId]: v.status });
  const [row] = await db
    .insert(objectives)
    .values({
      userId: v.userId,
      key: v.key,
      flow: v.flow,
      sparkId: v.sparkId ?? null,
      statuses: { [v.stepId]: v.status },
    })
    .onConflictDoUpdate({
      target: [objectives.userId, objectives.key],
      set: { statuses: sql`${objectives.statuses} || ${patch}::jsonb`, updatedAt: new Date() },
    })
    .returning();
  return row;
}

export class ObjectivesRepository {
  constructor(private readonly db: Database) {}

  async find(userId: string, key: string): Promise<ObjectivesRow | undefined> {
    const [row] = await this.db
      .select()
      .from(objectives)
      .where(and(eq(objectives.userId, userId), eq(objectives.key, key)));
    return row;
  }

  /** Sets one step's status (creating the record on first use); atomic per step. */
  setStatus(
    userId: string,
    key: string,
    flow: string,
    stepId: string,
    status: StepStatus,
    sparkId: string | null = null,
  ): Promise<ObjectivesRow> {
    return setObjectiveStep(this.db, { userId, key, flow, stepId, status, sparkId });
  }

  async setCompleted(id: string, isCompleted: boolean): Promise<void> {
    await this.db.update(objectives).set({ isCompleted }).where(eq(objectives.id, id));
  }
}
