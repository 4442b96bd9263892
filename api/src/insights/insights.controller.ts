import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  answerUnansweredSchema,
  sparkIdParams,
  unansweredAnsweredSchema,
  unansweredGroupViewSchema,
  unansweredParams,
  unansweredAnswerRemovedSchema,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodBody, ApiZodResponse, ZodPipe } from '../common/zod';
import { InsightsService } from './insights.service';

/** What the owner learns from their Spark's use: the questions it could not answer (issue 17 item 5). */
@ApiTags('insights')
@ApiBearerAuth()
@Controller('sparks/:sparkId/unanswered')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Questions the Spark could not answer (tests and widget), similar ones grouped, with counts and when last asked; open groups first',
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
