import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { CheckRunsController, ChecksController } from './checks.controller';
import { ChecksService } from './checks.service';
import { FeedbackService } from './feedback.service';
import { FeedbackController, InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';
import { TranscriptsController } from './transcripts.controller';
import { TranscriptsService } from './transcripts.service';

/**
 * The owner's view of how their Spark is used: the review list (unanswered questions, answers rated down), the owner's
 * answers, ratings, answer checks and the transcripts of judged tests.
 */
@Module({
  imports: [SparksModule],
  controllers: [InsightsController, FeedbackController, ChecksController, CheckRunsController, TranscriptsController],
  providers: [InsightsService, FeedbackService, ChecksService, TranscriptsService],
  exports: [FeedbackService],
})
export class InsightsModule {}
