import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  connectSiteSchema,
  visitorSessionSchema,
  widgetContactSchema,
  widgetConversationParams,
  widgetMessageSchema,
  widgetParams,
  widgetConfigViewSchema,
  visitorSessionViewSchema,
  widgetConversationSchema,
  widgetAnswerSchema,
  chatStreamEventSchema,
  contactSavedSchema,
  connectViewSchema,
  widgetConversationDeletedSchema,
  answerFeedbackSchema,
  answerFeedbackViewSchema,
  widgetMessageFeedbackParams,
} from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { ConversationsRepository, FeedbackRepository, toRatedWireMessages } from '@sparks/db';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CONFIG } from '@sparks/nest';
import { bearerToken, Public } from '../auth/public.decorator';
import { RateLimiter } from '../auth/rate-limiter.service';
import { answerAsJson, writeEventStream } from '../chat/chat.transport';
import { ChatService } from '../chat/chat.service';
import type { VisitorCaller } from '../chat/converse';
import { RawResponse } from '../common/envelope.interceptor';
import { requestLanguage } from '../common/language';
import { ApiZodBody, ZodPipe, ApiZodResponse, ApiZodEventStream } from '../common/zod';
import { FeedbackService } from '../insights/feedback.service';
import { DeployService } from './deploy.service';
import type { WidgetRequest } from './widget-cors.middleware';
import { DeploymentCap } from './deployment-cap';
import { WidgetMeter } from './widget-meter';
import { WidgetService, type WidgetContext } from './widget.service';

type ConversationParams = z.output<typeof widgetConversationParams>;

/**
 * Reads (the config every page view of the host site asks for, a conversation read back when the
 * chat opens) count on their own and may go this many times the sends' limits.
 */
const READS = 5;

/** The context the allow-list middleware checked (it always runs first on these routes). */
function widgetOf(req: WidgetRequest): WidgetContext {
  if (!req.widget) throw DomainError.of('ORIGIN_NOT_ALLOWED');
  return req.widget;
}

/**
 * The website widget's public API (no user session). The deploy token in the path names the Spark;
 * the visitor token (Authorization: Bearer) names the visitor; the calling page's origin must be on
 * the Spark's allow-list (WidgetCorsMiddleware).
 */
@ApiTags('public widget')
@Public()
@Controller('public/widgets/:token')
export class WidgetController {
  constructor(
    private readonly widgets: WidgetService,
    private readonly chat: ChatService,
    private readonly conversations: ConversationsRepository,
    private readonly ratings: FeedbackRepository,
    private readonly feedback: FeedbackService,
    private readonly limits: RateLimiter,
    private readonly meter: WidgetMeter,
    private readonly cap: DeploymentCap,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new visitor costs a place of the hour's, per client IP and per published Spark (issue 30); renewals are free. */
  private newVisitor(req: Request, ctx: WidgetContext): Promise<void> {
    return this.limits.perHour('widget-new-visitor', [
      { name: 'ip', key: req.ip ?? '-', max: this.config.WIDGET_NEW_VISITORS_IP_HOUR },
      {
        name: 'token',
        key: ctx.scope === 'preview' ? `preview:${ctx.spark.id}` : ctx.scope,
        max: this.config.WIDGET_NEW_VISITORS_TOKEN_HOUR,
      },
    ]);
  }

  /** A visitor message of a published Spark counts against its owner's daily limit (the preview does not). */
  private async daily(ctx: WidgetContext): Promise<void> {
    if (ctx.deployment) await this.cap.take(ctx.spark);
  }

  private limit(action: string, req: Request, ctx: WidgetContext, visitorId?: string, times = 1): Promise<void> {
    return this.limits.perMinute(`widget-${action}`, [
      ...(visitorId ? [{ name: 'visitor', key: visitorId, max: this.config.WIDGET_RATE_VISITOR_MAX * times }] : []),
      { name: 'ip', key: req.ip ?? '-', max: this.config.WIDGET_RATE_IP_MAX * times },
      {
        name: 'token',
        key: ctx.scope === 'preview' ? `preview:${ctx.spark.id}` : ctx.scope,
        max: this.config.WIDGET_RATE_TOKEN_MAX * times,
      },
    ]);
  }

  private caller(ctx: WidgetContext, visitorId: string): VisitorCaller {
    return { kind: 'visitor', sparkId: ctx.spark.id, deployToken: ctx.scope, visitorId };
  }

  private async visitor(req: WidgetRequest): Promise<{ ctx: WidgetContext; visitorId: string }> {
    const ctx = widgetOf(req);
    return { ctx, visitorId: await this.widgets.visitor(ctx, bearerToken(req.headers.authorization)) };
  }

  @Get('config')
  @ApiOperation({ summary: "The widget's look: { sparkId, name, language, initialMessage, position, theme }" })
  @ApiZodResponse(widgetConfigViewSchema)
  async config_(@Param(new ZodPipe(widgetParams)) _p: unknown, @Req() req: WidgetRequest) {
    const ctx = widgetOf(req);
    await this.limit('config', req, ctx, undefined, READS);
    return this.widgets.widgetConfig(ctx);
  }

  @Post('visitors')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A visitor token for this browser: { visitorToken, expiresAt } (send the old one to renew)',
  })
  @ApiZodBody(visitorSessionSchema)
  @ApiZodResponse(visitorSessionViewSchema)
  async session(
    @Param(new ZodPipe(widgetParams)) _p: unknown,
    @Body(new ZodPipe(visitorSessionSchema)) body: z.output<typeof visitorSessionSchema>,
    @Req() req: WidgetRequest,
  ) {
    const ctx = widgetOf(req);
    await this.limit('session', req, ctx);
    return this.widgets.session(ctx, body.visitorToken, () => this.newVisitor(req, ctx));
  }

  @Post('conversations')
  @ApiOperation({ summary: 'Start a conversation of the visitor: { conversationId, messages: [] }' })
  @ApiZodResponse(widgetConversationSchema, { status: 201 })
  async newConversation(@Param(new ZodPipe(widgetParams)) _p: unknown, @Req() req: WidgetRequest) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('conversation', req, ctx, visitorId);
    const conversation = await this.widgets.newConversation(ctx, visitorId);
    return { conversationId: conversation.id, messages: [] };
  }

  @Get('conversations/:conversationId')
  @ApiOperation({ summary: "The visitor's own conversation: { conversationId, messages }" })
  @ApiZodResponse(widgetConversationSchema)
  async history(@Param(new ZodPipe(widgetConversationParams)) p: ConversationParams, @Req() req: WidgetRequest) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('history', req, ctx, visitorId, READS);
    const conversation = await this.widgets.conversation(ctx, visitorId, p.conversationId);
    const [messages, ratings] = await Promise.all([
      this.conversations.history(conversation.id),
      this.ratings.ofConversation(conversation.id, 'visitor'),
    ]);
    return { conversationId: conversation.id, messages: toRatedWireMessages(messages, ratings) };
  }

  @Delete('conversations/:conversationId')
  @ApiOperation({
    summary: 'The visitor deletes their own conversation and its messages: { deleted: true } (404 for any other)',
  })
  @ApiZodResponse(widgetConversationDeletedSchema)
  async remove(@Param(new ZodPipe(widgetConversationParams)) p: ConversationParams, @Req() req: WidgetRequest) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('delete', req, ctx, visitorId);
    await this.widgets.deleteConversation(ctx, visitorId, p.conversationId);
    return { deleted: true as const };
  }

  @Post('conversations/:conversationId/messages')
  @HttpCode(200)
  @ApiOperation({ summary: 'Ask (non-streaming fallback); waits for the answer: { human, ai, messages }' })
  @ApiZodBody(widgetMessageSchema)
  @ApiZodResponse(widgetAnswerSchema)
  async ask(
    @Param(new ZodPipe(widgetConversationParams)) p: ConversationParams,
    @Body(new ZodPipe(widgetMessageSchema)) body: z.output<typeof widgetMessageSchema>,
    @Req() req: WidgetRequest,
  ) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('send', req, ctx, visitorId);
    const conversation = await this.widgets.conversation(ctx, visitorId, p.conversationId);
    await this.daily(ctx);
    const turn = await this.chat.converse(this.caller(ctx, visitorId), conversation, body.text, {
      language: requestLanguage(req),
      meter: this.meter,
    });
    return answerAsJson(turn);
  }

  @Post('conversations/:conversationId/stream')
  @RawResponse()
  @ApiOperation({
    summary:
      'Ask and stream the answer (SSE): a history line, then token events, the message and a final done or error',
  })
  @ApiZodBody(widgetMessageSchema)
  @ApiZodEventStream(
    chatStreamEventSchema,
    'One event per `data:` line: the history first, then tokens, messages, done or error',
  )
  async stream(
    @Param(new ZodPipe(widgetConversationParams)) p: ConversationParams,
    @Body(new ZodPipe(widgetMessageSchema)) body: z.output<typeof widgetMessageSchema>,
    @Req() req: WidgetRequest,
    @Res() res: Response,
  ) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('send', req, ctx, visitorId);
    const conversation = await this.widgets.conversation(ctx, visitorId, p.conversationId);
    await this.daily(ctx);
    const turn = await this.chat.converse(this.caller(ctx, visitorId), conversation, body.text, {
      language: requestLanguage(req),
      history: true,
      meter: this.meter,
    });
    await writeEventStream(res, turn);
  }

  @Post('conversations/:conversationId/messages/:messageId/feedback')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'The visitor rates an answer of their own conversation (up or down, optional comment; a second rating replaces the first): { messageId, rating, comment, ratedAt }',
  })
  @ApiZodBody(answerFeedbackSchema)
  @ApiZodResponse(answerFeedbackViewSchema)
  async rate(
    @Param(new ZodPipe(widgetMessageFeedbackParams)) p: z.output<typeof widgetMessageFeedbackParams>,
    @Body(new ZodPipe(answerFeedbackSchema)) body: z.output<typeof answerFeedbackSchema>,
    @Req() req: WidgetRequest,
  ) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('feedback', req, ctx, visitorId);
    const conversation = await this.widgets.conversation(ctx, visitorId, p.conversationId);
    return this.feedback.byVisitor(ctx.spark, conversation.id, p.messageId, body);
  }

  @Post('contact')
  @HttpCode(200)
  @ApiOperation({ summary: 'Leave an e-mail for the owner (when the Spark cannot answer): { saved: true }' })
  @ApiZodBody(widgetContactSchema)
  @ApiZodResponse(contactSavedSchema)
  async contact(
    @Param(new ZodPipe(widgetParams)) _p: unknown,
    @Body(new ZodPipe(widgetContactSchema)) body: z.output<typeof widgetContactSchema>,
    @Req() req: WidgetRequest,
  ) {
    const { ctx, visitorId } = await this.visitor(req);
    await this.limit('contact', req, ctx, visitorId);
    await this.widgets.leaveContact(ctx, visitorId, body.email);
    return { saved: true as const };
  }
}

/** The Pulse (WordPress plugin) connects a site with a one-time site key: server to server, no CORS. */
@ApiTags('public widget')
@Public()
@Controller('public')
export class ConnectController {
  constructor(
    private readonly widgets: WidgetService,
    private readonly deploy: DeployService,
    private readonly limits: RateLimiter,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('connect')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Connect a WordPress site: { siteKey, origin } → { sparkId, name, token, scriptUrl, snippet, origin, language, position }. The key works once; the origin joins the allow-list.',
  })
  @ApiZodBody(connectSiteSchema)
  @ApiZodResponse(connectViewSchema)
  async connect(@Body(new ZodPipe(connectSiteSchema)) body: z.output<typeof connectSiteSchema>, @Req() req: Request) {
    await this.limits.perMinute('widget-connect', [{ name: 'ip', key: req.ip ?? '-', max: 10 }]);
    return this.widgets.connect(body.siteKey, body.origin, this.deploy.scriptUrl);
  }
}
