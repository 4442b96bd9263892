import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  checkDeletedSchema,
  checkParams,
  checksQueuedSchema,
  checkViewSchema,
  createCheckSchema,
  sparkIdParams,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodBody, ApiZodResponse, ZodPipe } from '../common/zod';
import { ChecksService } from './checks.service';

/** A Spark's answer checks (issue 35 item 3): questions with approved answers, asked again when knowledge changes. */
@ApiTags('insights')
@ApiBearerAuth()
@Controller('sparks/:sparkId/checks')
export class ChecksController {
  constructor(private readonly checks: ChecksService) {}

  @Get()
  @ApiOperation({
    summary:
      "The Spark's answer checks: each question with its approved answer, what the last run answered and whether it changed",
  })
  @ApiZodResponse(z.array(checkViewSchema))
  list(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>) {
    return this.checks.list(user.id, p.sparkId);
  }

  @Post()
  @ApiOperation({
    summary:
      "Keep a check: from an answer of the Spark's test chats ({ messageId }) or typed ({ question, answer }); the same question again replaces its approved answer; 409 CHECKS_LIMIT past the limit",
  })
  @ApiZodBody(createCheckSchema)
  @ApiZodResponse(checkViewSchema, { status: 201 })
  keep(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
    @Body(new ZodPipe(createCheckSchema)) body: z.output<typeof createCheckSchema>,
  ) {
    return this.checks.keep(user.id, p.sparkId, body);
  }

  @Post(':checkId/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve what the check last answered: it becomes its approved answer' })
  @ApiZodResponse(checkViewSchema)
  approve(@CurrentUser() user: AuthUser, @Param(new ZodPipe(checkParams)) p: z.output<typeof checkParams>) {
    return this.checks.approve(user.id, p.sparkId, p.checkId);
  }

  @Delete(':checkId')
  @ApiOperation({ summary: 'Delete a check' })
  @ApiZodResponse(checkDeletedSchema)
  remove(@CurrentUser() user: AuthUser, @Param(new ZodPipe(checkParams)) p: z.output<typeof checkParams>) {
    return this.checks.remove(user.id, p.sparkId, p.checkId);
  }
}

/** Runs of a Spark's checks asked for by the owner (beside those the worker starts when knowledge changes). */
@ApiTags('insights')
@ApiBearerAuth()
@Controller('sparks/:sparkId/check-runs')
export class CheckRunsController {
  constructor(private readonly checks: ChecksService) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Ask every check of the Spark again now (the worker answers; the chat tells what changed)' })
  @ApiZodResponse(checksQueuedSchema, { status: 202 })
  run(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>) {
    return this.checks.runNow(user.id, p.sparkId);
  }
}
