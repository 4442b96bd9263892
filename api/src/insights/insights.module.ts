import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';

/** The owner's view of how their Spark is used: unanswered questions and the answers the owner adds. */
@Module({
  imports: [SparksModule],
  controllers: [InsightsController],
  providers: [InsightsService],
})
export class InsightsModule {}
