import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError, type ErrorCode } from '@sparks/core';
import { AccountsRepository } from '@sparks/db';
import {
  INTERACTION_METER,
  type InteractionMeter,
  type MeterContext,
  type TurnAnswer,
  type TurnFailure,
} from '../chat/converse';

/**
 * The meter's refusals that speak to the owner ("buy more interactions or upgrade your plan", the trial, the
 * account's status): a visitor gets the visitor's message instead, `INTERACTIONS_EXHAUSTED` (issue 30).
 */
const OWNER_ONLY: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'OUT_OF_INTERACTIONS',
  'TRIAL_ENDED',
  'ACCOUNT_INACTIVE',
]);

/**
 * BILLING CALL SITE (issue 15): every widget answer is an interaction. When the billing meter is
 * provided under INTERACTION_METER (reserve before answering, settle/release after, `usage.record`
 * with the message id as job id) every widget turn goes through it. Until it lands, this refuses a
 * turn when the tenant's counters say the period's interactions are spent, so the out-of-interactions
 * path (402 INTERACTIONS_EXHAUSTED, the widget's polite message and e-mail form) is real.
 *
 * A disabled account (its first tenant `inactive`, docs/product.md §4) answers no visitor either. The
 * meter refuses it with ACCOUNT_INACTIVE; the public API tells an anonymous visitor no more than that
 * the Spark cannot answer now, so the widget gets the same 402 as a Spark out of interactions (its
 * polite text and e-mail form), never the owner's account status (docs/decisions.md, 2026-11-25), nor
 * the owner's billing text: every refusal of the meter is `INTERACTIONS_EXHAUSTED` here.
 */
@Injectable()
export class WidgetMeter implements InteractionMeter {
  constructor(
    private readonly accounts: AccountsRepository,
    @Optional() @Inject(INTERACTION_METER) private readonly billing?: InteractionMeter,
  ) {}

  async reserve(context: MeterContext): Promise<unknown> {
    if (this.billing) {
      try {
        return await this.billing.reserve(context);
      } catch (err) {
        if (err instanceof DomainError && OWNER_ONLY.has(err.code)) throw DomainError.of('INTERACTIONS_EXHAUSTED');
        throw err;
      }
    }
    const [tenant] = await this.accounts.tenantsOf(context.conversation.userId);
    if (!tenant || tenant.status !== 'active' || tenant.usageInteractions >= tenant.limitInteractions) {
      throw DomainError.of('INTERACTIONS_EXHAUSTED');
    }
    return undefined;
  }

  async settle(reservation: unknown, answer: TurnAnswer): Promise<void> {
    await this.billing?.settle(reservation, answer);
  }

  async release(reservation: unknown, failure: TurnFailure): Promise<void> {
    await this.billing?.release(reservation, failure);
  }
}
