import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { analyticsQuery, analyticsSummarySchema, sparkAnalyticsParams, sparkAnalyticsSchema } from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodQuery, ApiZodResponse, ZodPipe } from '../common/zod';
import { AnalyticsService } from './analytics.service';

type Query = z.output<typeof analyticsQuery>;

/** The owner's analytics (issue 35 item 4): one Spark's, or all of theirs together. */
@ApiTags('analytics')
@ApiBearerAuth()
@Controller()
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('sparks/:sparkId/analytics')
  @ApiOperation({
    summary:
      "How a Spark is used over the last `days` days (1–90, default 30) in the owner's time zone `tz` (IANA, default UTC): every day's conversations, answers, not-covered answers and ratings, questions by hour, the top questions (grouped as the review list) and the widget's websites",
  })
  @ApiZodQuery(analyticsQuery)
  @ApiZodResponse(sparkAnalyticsSchema)
  ofSpark(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkAnalyticsParams)) p: z.output<typeof sparkAnalyticsParams>,
    @Query(new ZodPipe(analyticsQuery)) q: Query,
  ) {
    return this.analytics.ofSpark(user.id, p.sparkId, q);
  }

  @Get('analytics')
  @ApiOperation({
    summary:
      "The same figures across all the owner's Sparks together, and each Spark's totals (`sparks`, most conversations first)",
  })
  @ApiZodQuery(analyticsQuery)
  @ApiZodResponse(analyticsSummarySchema)
  summary(@CurrentUser() user: AuthUser, @Query(new ZodPipe(analyticsQuery)) q: Query) {
    return this.analytics.summary(user.id, q);
  }
}
