import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  answerUnansweredSchema,
  sparkIdParams,
  unansweredAnsweredSchema,
  unansweredGroupViewSchema,
  unansweredParams,
  unansweredAnswerRemovedSchema,
  unansweredDismissedSchema,
  answerFeedbackSchema,
  answerFeedbackViewSchema,
  messageFeedbackParams,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodBody, ApiZodResponse, ZodPipe } from '../common/zod';
import { FeedbackService } from './feedback.service';
import { InsightsService } from './insights.service';

/**
 * What the owner learns from their Spark's use: the review list of the questions it could not answer (issue 17
 * item 5) and of the answers rated down (issue 35).
 */
@ApiTags('insights')
@ApiBearerAuth()
@Controller('sparks/:sparkId/unanswered')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get()
  @ApiOperation({
    summary:
      'The review list: questions the Spark could not answer and answers rated down (tests and widget), similar ones grouped, each with its reason, what the Spark said, its sources, who rated it and when; open groups first',
  })
  @ApiZodResponse(z.array(unansweredGroupViewSchema))
  list(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>) {
    return this.insights.groups(user.id, p.sparkId);
  }

  @Post(':questionId/answer')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Answer a question's group in the owner's words: the answer becomes knowledge of the Spark (cited as added by the owner) and the group is answered: { documentId, groups }",
  })
  @ApiZodBody(answerUnansweredSchema)
  @ApiZodResponse(unansweredAnsweredSchema)
  answer(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(unansweredParams)) p: z.output<typeof unansweredParams>,
    @Body(new ZodPipe(answerUnansweredSchema)) body: z.output<typeof answerUnansweredSchema>,
  ) {
    return this.insights.answer(user.id, p.sparkId, p.questionId, body);
  }

  @Post(':questionId/dismiss')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Dismiss a group of the review list: its open questions leave the list until asked or rated down again: { dismissed, groups }',
  })
  @ApiZodResponse(unansweredDismissedSchema)
  dismiss(@CurrentUser() user: AuthUser, @Param(new ZodPipe(unansweredParams)) p: z.output<typeof unansweredParams>) {
    return this.insights.dismiss(user.id, p.sparkId, p.questionId);
  }

  @Delete(':questionId/answer')
  @ApiOperation({
    summary:
      "Take back the owner's answer to a question's group: it leaves the Spark's knowledge at once and the group is open again: { removed, groups }",
  })
  @ApiZodResponse(unansweredAnswerRemovedSchema)
  unanswer(@CurrentUser() user: AuthUser, @Param(new ZodPipe(unansweredParams)) p: z.output<typeof unansweredParams>) {
    return this.insights.unanswer(user.id, p.sparkId, p.questionId);
  }
}

@ApiTags('insights')
@ApiBearerAuth()
@Controller('sparks/:sparkId/messages/:messageId/feedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "The owner rates an answer of one of the Spark's test chats (up or down, optional comment; a second rating replaces the first); rated down, its question joins the review list",
  })
  @ApiZodBody(answerFeedbackSchema)
  @ApiZodResponse(answerFeedbackViewSchema)
  rate(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(messageFeedbackParams)) p: z.output<typeof messageFeedbackParams>,
    @Body(new ZodPipe(answerFeedbackSchema)) body: z.output<typeof answerFeedbackSchema>,
  ) {
    return this.feedback.byOwner(user.id, p.sparkId, p.messageId, body);
  }
}
