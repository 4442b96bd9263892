import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { UsageRepository, type Clock } from '@sparks/db';
import { CLOCK, CONFIG } from '@sparks/nest';
import { PeriodicSweep } from '../infra/periodic';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * The api settles or releases every hold when its turn ends, even when the client left; only an
 * api that died mid-turn leaves one open. Holds never settled long after any reply could have come
 * (twice the reply timeout, at least 10 minutes) go back to the balance.
 */
@Injectable()
export class UsageSweep extends PeriodicSweep {
  private readonly logger = new Logger(UsageSweep.name);

  constructor(
    private readonly usage: UsageRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    super(SWEEP_INTERVAL_MS);
  }

  async sweep(): Promise<number> {
    const age = Math.max(2 * this.config.REPLY_TIMEOUT_MS, 600_000);
    try {
      const released = await this.usage.releaseStale(new Date(this.clock.now().getTime() - age));
      if (released > 0) this.logger.warn(`released ${released} interaction hold(s) left open by a stopped api`);
      return released;
    } catch (err) {
      this.logger.warn(`usage sweep failed: ${String(err)}`);
      return 0;
    }
  }
}
