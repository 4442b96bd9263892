import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';

/** Usage figures of the owner's Sparks, for the analytics pages (issue 35 item 4). */
@Module({
  imports: [SparksModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService],
})
export class AnalyticsModule {}
