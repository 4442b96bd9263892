import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { CheckRunsController, ChecksController } from './checks.controller';
import { ChecksService } from './checks.service';
import { FeedbackService } from './feedback.service';
import { FeedbackController, InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';

/** The owner's view of how their Spark is used: the review list (unanswered questions, answers rated down), the owner's answers, ratings. */
@Module({
  imports: [SparksModule],
  controllers: [InsightsController, FeedbackController, ChecksController, CheckRunsController],
  providers: [InsightsService, FeedbackService, ChecksService],
  exports: [FeedbackService],
})
export class InsightsModule {}
