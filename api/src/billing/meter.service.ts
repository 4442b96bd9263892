import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@sparks/core';
import { SparksRepository, UsageMeter, UsageRepository, type Clock } from '@sparks/db';
import { isStartKeyword } from '@sparks/engine';
import { JobProducer } from '@sparks/queues';
import { CLOCK } from '@sparks/nest';
import type { InteractionMeter, MeterContext, TurnAnswer } from '../chat/converse';

/** A held interaction, or null for a free turn. */
export type MeterReservation = { id: string } | null;

/**
 * The interaction meter behind the chat's `InteractionMeter` seam (issue 15), provided under
 * `INTERACTION_METER` so that every `converse` turn is metered: an answer of a Spark in a test chat
 * or the website widget (conversation kinds `test` and `widget`) is one interaction; builder and
 * system-assistant turns, and the start keyword that opens a test, are free. `reserve` throws the
 * 402 (`TRIAL_ENDED`, `OUT_OF_INTERACTIONS`), or 403 `ACCOUNT_INACTIVE` for a disabled account, before
 * anything is stored; `settle` ties the hold to the answered message and enqueues `usage.record`;
 * `release` gives it back.
 */
@Injectable()
export class MeterService implements InteractionMeter<MeterReservation> {
  private readonly meter: UsageMeter;

  constructor(
    usage: UsageRepository,
    private readonly sparks: SparksRepository,
    jobs: JobProducer,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.meter = new UsageMeter(usage, (messageId) => jobs.enqueue('usage.record', { messageId }), clock);
  }

  private async ownerOf(context: MeterContext): Promise<string | undefined> {
    if (context.conversation.userId) return context.conversation.userId;
    const sparkId = context.caller.kind === 'visitor' ? context.caller.sparkId : context.conversation.sparkId;
    return sparkId ? (await this.sparks.findById(sparkId))?.userId : undefined;
  }

  async reserve(context: MeterContext): Promise<MeterReservation> {
    const { conversation, text } = context;
    if (conversation.kind !== 'test' && conversation.kind !== 'widget') return null;
    if (isStartKeyword(text)) return null;
    const owner = await this.ownerOf(context);
    if (!owner) throw DomainError.notFound();
    const held = await this.meter.reserve(owner);
    if (!held.ok) throw DomainError.of(held.code);
    return { id: held.id };
  }

  /** An answer that is only the engine's apology (an `error` ai message) is not an interaction. */
  async settle(reservation: MeterReservation, answer: TurnAnswer): Promise<void> {
    if (!reservation) return;
    const answered = answer.messages.some((m) => m.type === 'ai' && (m.data as { type?: string }).type !== 'error');
    if (answered) await this.meter.settle(reservation.id, answer.human.id);
    else await this.meter.release(reservation.id);
  }

  async release(reservation: MeterReservation): Promise<void> {
    if (reservation) await this.meter.release(reservation.id);
  }
}
