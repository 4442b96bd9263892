import { Global, Module } from '@nestjs/common';
import { systemClock } from '@sparks/db';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { MeterService } from './meter.service';
import { CLOCK } from './tokens';
import { INTERACTION_METER } from '../chat/converse';

/**
 * Plans, credits, checkout and the interaction meter. Global: any module (the test chat, the
 * website widget) injects `MeterService` without importing this one.
 */
@Global()
@Module({
  controllers: [BillingController],
  providers: [
    { provide: CLOCK, useValue: { now: () => systemClock.now() } },
    BillingService,
    MeterService,
    { provide: INTERACTION_METER, useExisting: MeterService },
  ],
  exports: [BillingService, MeterService, INTERACTION_METER, CLOCK],
})
export class BillingModule {}
