import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  builderChatSchema,
  idParams,
  sparkIdParams,
  sparkTestParams,
  streamChatQuery,
  systemChatParams,
  testChatSchema,
} from '@sparks/contracts';
import { DomainError, type ErrorCode } from '@sparks/core';
import type { ConversationRow } from '@sparks/db';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { RawResponse } from '../common/envelope.interceptor';
import { requestLanguage } from '../common/language';
import { ApiZodBody, ApiZodQuery, ZodPipe } from '../common/zod';
import { SparkTestsService } from '../sparks/spark-tests.service';
import { toMessageView } from '../sparks/sparks.view';
import { ChatService, type ReplyOutcome } from './chat.service';

type StreamQuery = z.output<typeof streamChatQuery>;

const START_MESSAGE = 'inicio';

function unwrap(outcome: ReplyOutcome) {
  if (outcome.error) {
    const status =
      outcome.error.code === 'REPLY_TIMEOUT' ? 504 : outcome.error.code === 'ASSISTANT_UNAVAILABLE' ? 503 : 502;
    throw new DomainError(status, { code: outcome.error.code as ErrorCode });
  }
  const replies = outcome.messages;
  const ai = [...replies].reverse().find((m) => m.type === 'ai') ?? null;
  return { ai, messages: replies };
}

/** The JSON transport: store the human message, wait for the reply, answer both. */
async function ask(chat: ChatService, conversation: ConversationRow, text: string, req: Request) {
  const human = await chat.store(conversation, text);
  const outcome = await chat.reply(conversation, human, requestLanguage(req));
  return { ...unwrap(outcome), human: toMessageView(human) };
}

@ApiTags('chat')
@ApiBearerAuth()
@Controller('sparks/:sparkId')
export class SparkChatController {
  constructor(
    private readonly chat: ChatService,
    private readonly tests: SparkTestsService,
  ) {}

  private testConversation(user: AuthUser, p: z.output<typeof sparkTestParams>, conversationId?: string | null) {
    const ownerCheck = this.tests.owned(user.id, p.sparkId, p.testId);
    return this.chat.testConversation(user.id, p.sparkId, p.testId, conversationId, ownerCheck);
  }

  @Post('chat/:testId')
  @ApiOperation({
    summary: 'Chat with a test of the Spark (answer engine); waits for the reply (≤ 300 s): { ai, conversationId }',
  })
  @ApiZodBody(testChatSchema)
  async testChat(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
    @Body(new ZodPipe(testChatSchema)) body: z.output<typeof testChatSchema>,
    @Req() req: Request,
  ) {
    const conversation = await this.testConversation(user, p, body.conversationId);
    return { ...(await ask(this.chat, conversation, body.input.text, req)), conversationId: conversation.id };
  }

  @Get('chat/:testId')
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'The same test chat as an event stream (query input.text, conversationId)' })
  @ApiZodQuery(streamChatQuery)
  async testChatStream(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
    @Query(new ZodPipe(streamChatQuery)) q: StreamQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const conversation = await this.testConversation(user, p, q.conversationId ?? q.sessionId);
    await this.chat.send(res, conversation, q['input.text'], requestLanguage(req));
  }

  @Post('tests/:testId/restart')
  @ApiOperation({ summary: "Restart a test: forget its conversation and start a new one with 'inicio'" })
  async restart(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
    @Req() req: Request,
  ) {
    await this.tests.owned(user.id, p.sparkId, p.testId);
    const conversation = await this.chat.newTestConversation(user.id, p.sparkId, p.testId);
    return { ...(await ask(this.chat, conversation, START_MESSAGE, req)), conversationId: conversation.id };
  }

  @Get('tests/:testId/conversation')
  @ApiOperation({ summary: "The test's current conversation: { messages, sessionId, sparkId }" })
  async testHistory(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: z.output<typeof sparkTestParams>,
  ) {
    return this.chat.historyOf(await this.testConversation(user, p));
  }

  // — the Spark's own builder chat (flow engine) —

  @Post('messages')
  @ApiOperation({
    summary: "Send a message to the Spark's builder chat; waits for the reply: { ai, messages, sessionId }",
  })
  @ApiZodBody(builderChatSchema)
  async builderChat(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
    @Body(new ZodPipe(builderChatSchema)) body: z.output<typeof builderChatSchema>,
    @Req() req: Request,
  ) {
    const conversation = await this.chat.builderConversation(user.id, p.sparkId, body.sessionId);
    return { ...(await ask(this.chat, conversation, body.input.text, req)), sessionId: conversation.id };
  }

  @Get('chat')
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: "The Spark's builder chat as an event stream (query input.text, sessionId)" })
  @ApiZodQuery(streamChatQuery)
  async builderChatStream(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
    @Query(new ZodPipe(streamChatQuery)) q: StreamQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const conversation = await this.chat.builderConversation(user.id, p.sparkId, q.sessionId);
    await this.chat.send(res, conversation, q['input.text'], requestLanguage(req));
  }

  @Get('conversation')
  @ApiOperation({ summary: "The Spark's builder conversation, to resume it: { messages, sessionId, sparkId }" })
  async builderHistory(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: z.output<typeof sparkIdParams>,
  ) {
    return this.chat.historyOf(await this.chat.builderConversation(user.id, p.sparkId));
  }
}

@ApiTags('chat')
@ApiBearerAuth()
@Controller('spark-sys')
export class SparkSysController {
  constructor(private readonly chat: ChatService) {}

  @Get('conversations/:id')
  @ApiOperation({ summary: 'A system-assistant conversation: { messages }' })
  async conversation(@CurrentUser() user: AuthUser, @Param(new ZodPipe(idParams)) p: z.output<typeof idParams>) {
    const { messages } = await this.chat.history(user.id, p.id);
    return { messages };
  }

  @Get(':sparkname/chat')
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiOperation({
    summary:
      'Chat with a system assistant (main, new-spark, billing, deploy, settings, profile, onboarding). The first data line is { messages, sessionId }.',
  })
  @ApiZodQuery(streamChatQuery)
  async chatStream(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(systemChatParams)) p: z.output<typeof systemChatParams>,
    @Query(new ZodPipe(streamChatQuery)) q: StreamQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const conversation: ConversationRow = await this.chat.systemConversation(
      user.id,
      p.sparkname,
      q.sessionId,
      q['options.sparkId'],
    );
    await this.chat.send(res, conversation, q['input.text'], requestLanguage(req));
  }
}

@ApiTags('chat')
@ApiBearerAuth()
@Controller('llm')
export class LlmController {
  constructor(private readonly chat: ChatService) {}

  @Get('chat-history/:id')
  @ApiOperation({ summary: 'Any conversation of the signed-in user: { messages, sessionId, sparkId }' })
  history(@CurrentUser() user: AuthUser, @Param(new ZodPipe(idParams)) p: z.output<typeof idParams>) {
    return this.chat.history(user.id, p.id);
  }
}
