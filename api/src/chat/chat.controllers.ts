import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  builderChatSchema,
  idParams,
  sparkIdParams,
  sparkTestParams,
  streamChatQuery,
  systemChatParams,
  testChatSchema,
  testChatAnswerSchema,
  chatStreamEventSchema,
  chatHistorySchema,
  builderChatAnswerSchema,
  conversationMessagesSchema,
} from '@sparks/contracts';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { Billable, CurrentUser, type AuthUser } from '../auth/public.decorator';
import { RawResponse } from '../common/envelope.interceptor';
import { requestLanguage } from '../common/language';
import { ApiZodBody, ApiZodQuery, ZodPipe, ApiZodResponse, ApiZodEventStream } from '../common/zod';
import { ChatService } from './chat.service';
import { answerAsJson, writeEventStream } from './chat.transport';
import { userCaller } from './converse';

type StreamQuery = z.output<typeof streamChatQuery>;

@ApiTags('chat')
@ApiBearerAuth()
@Controller('sparks/:sparkId')
export class SparkChatController {
  constructor(private readonly chat: ChatService) {}

  @Post('chat/:testId')
  @ApiOperation({
    summary: 'Chat with a test of the Spark (answer engine); waits for the reply (≤ 300 s): { ai, conversationId }',
  })
  @ApiZodBody(testChatSchema)
  @ApiZodResponse(testChatAnswerSchema, { status: 201 })
  async testChat(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
    @Body(new ZodPipe(testChatSchema)) body: z.output<typeof testChatSchema>,
    @Req() req: Request,
  ) {
    const turn = await this.chat.sendToTest(
      userCaller(user.id),
      { ...p, conversationId: body.conversationId, text: body.input.text },
      { language: requestLanguage(req) },
    );
    return { ...(await answerAsJson(turn)), conversationId: turn.conversation.id };
  }

  @Get('chat/:testId')
  @Billable()
  @RawResponse()
  @ApiOperation({ summary: 'The same test chat as an event stream (query input.text, conversationId)' })
  @ApiZodQuery(streamChatQuery)
  @ApiZodEventStream(
    chatStreamEventSchema,
    'One event per `data:` line: the history first, then tokens, messages, done or error',
  )
  async testChatStream(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
    @Query(new ZodPipe(streamChatQuery)) q: StreamQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const turn = await this.chat.sendToTest(
      userCaller(user.id),
      { ...p, conversationId: q.conversationId ?? q.sessionId, text: q['input.text'] },
      { language: requestLanguage(req), history: true },
    );
    await writeEventStream(res, turn);
  }

  @Post('tests/:testId/restart')
  @ApiOperation({ summary: "Restart a test: forget its conversation and start a new one with 'inicio'" })
  @ApiZodResponse(testChatAnswerSchema, { status: 201 })
  async restart(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
    @Req() req: Request,
  ) {
    const turn = await this.chat.restartTest(userCaller(user.id), p, { language: requestLanguage(req) });
    return { ...(await answerAsJson(turn)), conversationId: turn.conversation.id };
  }

  @Get('tests/:testId/conversation')
  @ApiOperation({ summary: "The test's current conversation: { messages, sessionId, sparkId }" })
  @ApiZodResponse(chatHistorySchema)
  async testHistory(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
  ) {
    return this.chat.testHistory(user.id, p.sparkId, p.testId);
  }

  // — the Spark's own builder chat (flow engine) —

  @Post('messages')
  @ApiOperation({
    summary: "Send a message to the Spark's builder chat; waits for the reply: { ai, messages, sessionId }",
  })
  @ApiZodBody(builderChatSchema)
  @ApiZodResponse(builderChatAnswerSchema, { status: 201 })
  async builderChat(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
    @Body(new ZodPipe(builderChatSchema)) body: z.output<typeof builderChatSchema>,
    @Req() req: Request,
  ) {
    const turn = await this.chat.sendToBuilder(
      userCaller(user.id),
      { sparkId: p.sparkId, sessionId: body.sessionId, text: body.input.text },
      { language: requestLanguage(req) },
    );
    return { ...(await answerAsJson(turn)), sessionId: turn.conversation.id };
  }

  @Get('chat')
  @Billable()
  @RawResponse()
  @ApiOperation({ summary: "The Spark's builder chat as an event stream (query input.text, sessionId)" })
  @ApiZodQuery(streamChatQuery)
  @ApiZodEventStream(
    chatStreamEventSchema,
    'One event per `data:` line: the history first, then tokens, messages, done or error',
  )
  async builderChatStream(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
    @Query(new ZodPipe(streamChatQuery)) q: StreamQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const turn = await this.chat.sendToBuilder(
      userCaller(user.id),
      { sparkId: p.sparkId, sessionId: q.sessionId, text: q['input.text'] },
      { language: requestLanguage(req), history: true },
    );
    await writeEventStream(res, turn);
  }

  @Get('conversation')
  @ApiOperation({ summary: "The Spark's builder conversation, to resume it: { messages, sessionId, sparkId }" })
  @ApiZodResponse(chatHistorySchema)
  async builderHistory(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
  ) {
    return this.chat.builderHistory(user.id, p.sparkId);
  }
}

@ApiTags('chat')
@ApiBearerAuth()
@Controller('spark-sys')
export class SparkSysController {
  constructor(private readonly chat: ChatService) {}

  @Get('conversations/:id')
  @ApiOperation({ summary: 'A system-assistant conversation: { messages }' })
  @ApiZodResponse(conversationMessagesSchema)
  async conversation(@CurrentUser() user: AuthUser, @Param(new ZodPipe(idParams)) p: z.output<typeof idParams>) {
    const { messages } = await this.chat.history(user.id, p.id);
    return { messages };
  }

  @Get(':sparkname/chat')
  @Billable()
  @RawResponse()
  @ApiOperation({
    summary:
      'Chat with a system assistant (main, new-spark, billing, deploy, settings, profile, onboarding). The first data line is { messages, sessionId }.',
  })
  @ApiZodQuery(streamChatQuery)
  @ApiZodEventStream(
    chatStreamEventSchema,
    'One event per `data:` line: the history first, then tokens, messages, done or error',
  )
  async chatStream(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(systemChatParams)) p: z.output<typeof systemChatParams>,
    @Query(new ZodPipe(streamChatQuery)) q: StreamQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const turn = await this.chat.sendToSystemAssistant(
      userCaller(user.id),
      { name: p.sparkname, sessionId: q.sessionId, sparkId: q['options.sparkId'], text: q['input.text'] },
      { language: requestLanguage(req), history: true },
    );
    await writeEventStream(res, turn);
  }
}

@ApiTags('chat')
@ApiBearerAuth()
@Controller('llm')
export class LlmController {
  constructor(private readonly chat: ChatService) {}

  @Get('chat-history/:id')
  @ApiOperation({ summary: 'Any conversation of the signed-in user: { messages, sessionId, sparkId }' })
  @ApiZodResponse(chatHistorySchema)
  history(@CurrentUser() user: AuthUser, @Param(new ZodPipe(idParams)) p: z.output<typeof idParams>) {
    return this.chat.history(user.id, p.id);
  }
}
