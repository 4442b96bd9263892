import { and, eq, sql } from 'drizzle-orm';
import type { Database } from './client';
import { objectives, type StepStatus } from './schema/index';

export type ObjectivesRow = typeof objectives.$inferSelect;

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
  async setStatus(
    userId: string,
    key: string,
    flow: string,
    stepId: string,
    status: StepStatus,
    sparkId: string | null = null,
  ): Promise<ObjectivesRow> {
    const patch = JSON.stringify({ [stepId]: status });
    const [row] = await this.db
      .insert(objectives)
      .values({ userId, key, flow, sparkId, statuses: { [stepId]: status } })
      .onConflictDoUpdate({
        target: [objectives.userId, objectives.key],
        set: { statuses: sql`${objectives.statuses} || ${patch}::jsonb`, updatedAt: new Date() },
      })
      .returning();
    return row;
  }

  async setCompleted(id: string, isCompleted: boolean): Promise<void> {
    await this.db.update(objectives).set({ isCompleted }).where(eq(objectives.id, id));
  }
}
