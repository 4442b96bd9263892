import { uuidv7 } from 'uuidv7';
import type { ReserveOutcome, UsageRepository } from './billing/usage.repository';

/** Where "now" comes from: the system clock in production, a movable one in tests. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export type Reservation = ReserveOutcome & { id: string };

/**
 * The interaction meter (issue 15): every billable answer (a test chat's, a widget's) goes
 * reserve → answer → settle, or reserve → release when the answer fails. A hold counts against
 * the balance until it is recorded or released; settling ties it to the answered message, whose id
 * makes the recording (the `usage.record` job) happen once.
 */
export class UsageMeter {
  constructor(
    private readonly usage: UsageRepository,
    /** Enqueues `usage.record` for the message (job id from the message id). */
    private readonly enqueueRecord: (messageId: string) => Promise<unknown>,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Holds one interaction of `ownerUserId`'s tenant; `ok: false` carries the refusal's code (402
   * `TRIAL_ENDED`, `OUT_OF_INTERACTIONS`; 403 `ACCOUNT_INACTIVE` for a disabled account).
   */
  async reserve(ownerUserId: string): Promise<Reservation> {
    const id = uuidv7();
    const tenant = await this.usage.firstTenantOf(ownerUserId);
    if (!tenant) return { ok: false, code: 'OUT_OF_INTERACTIONS', id };
    return { ...(await this.usage.reserve(tenant.id, id, this.clock.now())), id };
  }

  /** The answer to `messageId` was given: recorded by the `usage` queue. */
  async settle(reservationId: string, messageId: string): Promise<void> {
    if (await this.usage.markSettled(reservationId, messageId, this.clock.now())) {
      await this.enqueueRecord(messageId);
    }
  }

  /** The answer failed: the interaction goes back to the balance. */
  async release(reservationId: string): Promise<void> {
    await this.usage.release(reservationId);
  }
}
