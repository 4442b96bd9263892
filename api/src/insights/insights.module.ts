import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { FeedbackService } from './feedback.service';
import { FeedbackController, InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';

/** The owner's view of how their Spark is used: the review list (unanswered questions, answers rated down), the owner's answers, ratings. */
@Module({
  imports: [SparksModule],
  controllers: [InsightsController, FeedbackController],
  providers: [InsightsService, FeedbackService],
  exports: [FeedbackService],
})
export class InsightsModule {}
