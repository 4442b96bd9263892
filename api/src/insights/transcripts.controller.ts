import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  MAX_TRANSCRIPTS_PER_SPARK,
  sparkIdParams,
  transcriptDeletedSchema,
  transcriptParams,
  transcriptSummarySchema,
  transcriptViewSchema,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodResponse, ZodPipe } from '../common/zod';
import { TranscriptsService } from './transcripts.service';

/** Transcripts of a Spark's judged tests (issue 35 item 2): what was said, kept for the owner to read and rate. */
@ApiTags('insights')
@ApiBearerAuth()
@Controller('sparks/:sparkId/transcripts')
export class TranscriptsController {
  constructor(private readonly transcripts: TranscriptsService) {}

  @Get()
  @ApiOperation({
    summary: `The transcripts of the Spark's judged tests, newest first (at most ${MAX_TRANSCRIPTS_PER_SPARK}): the test's name, the verdict, when it was given and how many questions were asked`,
  })
  @ApiZodResponse(z.array(transcriptSummarySchema))
  list(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>) {
    return this.transcripts.list(user.id, p.sparkId);
  }

  @Get(':conversationId')
  @ApiOperation({
    summary:
      "A judged test's transcript: its messages as the test chat's history gives them, each answer with the owner's rating (rate them with POST /sparks/{sparkId}/messages/{messageId}/feedback)",
  })
  @ApiZodResponse(transcriptViewSchema)
  get(@CurrentUser() user: AuthUser, @Param(new ZodPipe(transcriptParams)) p: z.output<typeof transcriptParams>) {
    return this.transcripts.get(user.id, p.sparkId, p.conversationId);
  }

  @Delete(':conversationId')
  @ApiOperation({ summary: "Delete a judged test's transcript with its messages and their ratings" })
  @ApiZodResponse(transcriptDeletedSchema)
  remove(@CurrentUser() user: AuthUser, @Param(new ZodPipe(transcriptParams)) p: z.output<typeof transcriptParams>) {
    return this.transcripts.remove(user.id, p.sparkId, p.conversationId);
  }
}
