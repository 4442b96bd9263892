import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  originSchema,
  publishSchema,
  sparkConversationParams,
  sparkIdParams,
  visitorConversationsQuery,
  deploymentViewSchema,
  siteKeyViewSchema,
  previewTokenSchema,
  visitorConversationSummarySchema,
  pageMetaSchema,
  visitorConversationSchema,
  visitorRetentionSchema,
  deploymentSettingsSchema,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { Paged } from '../common/paged';
import { ApiZodBody, ApiZodQuery, ZodPipe, ApiZodResponse } from '../common/zod';
import { SparksService } from '../sparks/sparks.service';
import { DeployService } from './deploy.service';
import { WidgetService } from './widget.service';

type SparkParams = z.output<typeof sparkIdParams>;

/** The owner's deploy routes of one Spark (the deploy assistant drives the same service). */
@ApiTags('deploy')
@ApiBearerAuth()
@Controller('sparks/:sparkId/deployment')
export class DeployController {
  constructor(
    private readonly deploy: DeployService,
    private readonly widgets: WidgetService,
    private readonly sparks: SparksService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Whether the Spark is published, its snippet, allowed sites and when it was first seen' })
  @ApiZodResponse(deploymentViewSchema)
  view(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.deploy.view(user.id, p.sparkId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Publish (within the plan's limits.deployments.value; 402 DEPLOYMENT_LIMIT past it)" })
  @ApiZodBody(publishSchema)
  @ApiZodResponse(deploymentViewSchema)
  publish(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(publishSchema)) body: z.output<typeof publishSchema>,
  ) {
    return this.deploy.publish(user.id, p.sparkId, body);
  }

  @Patch()
  @ApiOperation({
    summary:
      'The widget’s settings: { dailyLimit } visitor messages a day (UTC, 1–10,000, default 200; 400 DAILY_LIMIT_INVALID); past it visitors get 429 DEPLOYMENT_DAILY_LIMIT',
  })
  @ApiZodBody(deploymentSettingsSchema)
  @ApiZodResponse(deploymentViewSchema)
  settings(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(deploymentSettingsSchema)) body: z.output<typeof deploymentSettingsSchema>,
  ) {
    return this.deploy.setDailyLimit(user.id, p.sparkId, body.dailyLimit);
  }

  @Delete()
  @ApiOperation({ summary: 'Unpublish: the token stops working at once' })
  @ApiZodResponse(deploymentViewSchema)
  unpublish(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.deploy.unpublish(user.id, p.sparkId);
  }

  @Post('rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new deploy token; the old one stops working at once' })
  @ApiZodResponse(deploymentViewSchema)
  rotate(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.deploy.rotate(user.id, p.sparkId);
  }

  @Post('origins')
  @HttpCode(200)
  @ApiOperation({ summary: 'Allow a website (its origin: scheme, host, port)' })
  @ApiZodBody(originSchema)
  @ApiZodResponse(deploymentViewSchema)
  addOrigin(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(originSchema)) body: z.output<typeof originSchema>,
  ) {
    return this.deploy.addOrigin(user.id, p.sparkId, body.origin);
  }

  @Post('origins/remove')
  @HttpCode(200)
  @ApiOperation({ summary: 'Stop allowing a website' })
  @ApiZodBody(originSchema)
  @ApiZodResponse(deploymentViewSchema)
  removeOrigin(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(originSchema)) body: z.output<typeof originSchema>,
  ) {
    return this.deploy.removeOrigin(user.id, p.sparkId, body.origin);
  }

  @Put('retention')
  @ApiOperation({
    summary:
      "How many days visitors' conversations are kept after their last message (1–730, default 90; 400 RETENTION_DAYS_INVALID)",
  })
  @ApiZodBody(visitorRetentionSchema)
  @ApiZodResponse(deploymentViewSchema)
  retention(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(visitorRetentionSchema)) body: z.output<typeof visitorRetentionSchema>,
  ) {
    return this.deploy.setRetention(user.id, p.sparkId, body.days);
  }

  @Post('site-key')
  @HttpCode(200)
  @ApiOperation({ summary: 'A one-time site key (24 h) for the WordPress Pulse: { siteKey, expiresAt }' })
  @ApiZodResponse(siteKeyViewSchema)
  siteKey(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.deploy.newSiteKey(user.id, p.sparkId);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'A token for the live preview of the widget (app origin only, 4 h): { token, scriptUrl }' })
  @ApiZodResponse(previewTokenSchema)
  async preview(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    await this.sparks.owned(user.id, p.sparkId);
    return { token: await this.widgets.previewToken(p.sparkId), scriptUrl: this.deploy.scriptUrl };
  }

  @Get('conversations')
  @ApiOperation({ summary: "Visitors' conversations, newest activity first (read-only)" })
  @ApiZodQuery(visitorConversationsQuery)
  @ApiZodResponse(z.array(visitorConversationSummarySchema), { meta: pageMetaSchema })
  async conversations(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Query(new ZodPipe(visitorConversationsQuery)) q: z.output<typeof visitorConversationsQuery>,
  ) {
    const page = await this.deploy.visitorConversations(user.id, p.sparkId, q.page, q.limit);
    return new Paged(page.items, page.meta);
  }

  @Get('conversations/:conversationId')
  @ApiOperation({ summary: "One visitor's conversation (read-only): { conversationId, sparkId, messages }" })
  @ApiZodResponse(visitorConversationSchema)
  conversation(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkConversationParams)) p: z.output<typeof sparkConversationParams>,
  ) {
    return this.deploy.visitorConversation(user.id, p.sparkId, p.conversationId);
  }
}
