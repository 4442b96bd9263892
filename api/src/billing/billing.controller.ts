import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  checkoutIdParams,
  checkoutSessionSchema,
  creditPurchaseSchema,
  customerIdParams,
  featureParams,
  overageSchema,
  priceViewSchema,
  creditCatalogSchema,
  subscriptionViewSchema,
  availableCreditsSchema,
  checkoutUrlSchema,
  creditPurchaseResultSchema,
  overageViewSchema,
  checkoutSessionViewSchema,
  portalSessionSchema,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodBody, ZodPipe, ApiZodResponse } from '../common/zod';
import { BillingService } from './billing.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller()
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Get('prices')
  @ApiOperation({ summary: 'The plans on sale, as prices (priceId, productId, unit_amount in cents, limits)' })
  @ApiZodResponse(z.array(priceViewSchema))
  prices() {
    return this.billing.prices();
  }

  @Get('billing/catalog/credits')
  @ApiOperation({ summary: 'The credit packs (ITx): { items }, sorted by interactions' })
  @ApiZodResponse(creditCatalogSchema)
  credits() {
    return this.billing.creditCatalog();
  }

  @Get('billing/subscriptions/:customerId')
  @ApiOperation({ summary: "The caller's subscriptions (empty on the free plan); another customer's → 404" })
  @ApiZodResponse(z.array(subscriptionViewSchema))
  subscriptions(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(customerIdParams)) p: z.output<typeof customerIdParams>,
  ) {
    return this.billing.subscriptions(user.id, p.customerId);
  }

  @Get('billing/credits/:feature/available')
  @ApiOperation({ summary: 'Purchased interactions not spent yet: { total } (feature: interactions)' })
  @ApiZodResponse(availableCreditsSchema)
  available(@CurrentUser() user: AuthUser, @Param(new ZodPipe(featureParams)) p: z.output<typeof featureParams>) {
    return this.billing.available(user.id, p.feature);
  }

  @Post('billing/customers/:customerId/session')
  @ApiOperation({ summary: 'Start a checkout for a plan (subscription) or a pack (payment): { sessionUrl }' })
  @ApiZodBody(checkoutSessionSchema)
  @ApiZodResponse(checkoutUrlSchema, { status: 201 })
  async session(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(customerIdParams)) p: z.output<typeof customerIdParams>,
    @Body(new ZodPipe(checkoutSessionSchema)) body: z.output<typeof checkoutSessionSchema>,
  ) {
    const { sessionUrl } = await this.billing.createSession(
      user.id,
      p.customerId,
      body.mode,
      body.priceId,
      body.returnTo,
    );
    return { sessionUrl };
  }

  @Post('billing/customers/:customerId/portal')
  @ApiOperation({
    summary:
      "Where the customer changes or cancels the plan: Stripe's Customer Portal, or the app's billing page with the local provider: { sessionUrl }",
  })
  @ApiZodResponse(portalSessionSchema, { status: 201 })
  portal(@CurrentUser() user: AuthUser, @Param(new ZodPipe(customerIdParams)) p: z.output<typeof customerIdParams>) {
    return this.billing.portal(user.id, p.customerId);
  }

  @Post('billing/credits/purchase')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Buy a credit pack: { success, status } — paid at once with a paid plan, else open with a sessionUrl',
  })
  @ApiZodBody(creditPurchaseSchema)
  @ApiZodResponse(creditPurchaseResultSchema)
  purchase(
    @CurrentUser() user: AuthUser,
    @Body(new ZodPipe(creditPurchaseSchema)) body: z.output<typeof creditPurchaseSchema>,
  ) {
    return this.billing.purchaseCredits(user.id, body.productId, body.returnTo);
  }

  @Get('billing/overage')
  @ApiOperation({
    summary:
      "The owner's overage setting (on/off, monthly cap in cents), the plan's premium rate and this period's overage",
  })
  @ApiZodResponse(overageViewSchema)
  overageSetting(@CurrentUser() user: AuthUser) {
    return this.billing.overage(user.id);
  }

  @Put('billing/overage')
  @ApiOperation({ summary: 'Turn overage (the premium per-interaction rate) on or off, with a monthly cap in cents' })
  @ApiZodBody(overageSchema)
  @ApiZodResponse(overageViewSchema)
  overage(@CurrentUser() user: AuthUser, @Body(new ZodPipe(overageSchema)) body: z.output<typeof overageSchema>) {
    return this.billing.setOverage(user.id, body.enabled, body.capCents);
  }

  @Get('billing/checkout/:sessionId')
  @ApiOperation({ summary: "A checkout session of the caller's (the local test-payment page reads it)" })
  @ApiZodResponse(checkoutSessionViewSchema)
  checkout(@CurrentUser() user: AuthUser, @Param(new ZodPipe(checkoutIdParams)) p: z.output<typeof checkoutIdParams>) {
    return this.billing.checkout(user.id, p.sessionId);
  }

  @Post('billing/checkout/:sessionId/pay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Local provider: pay a test checkout (no card data); the same fulfilment as a webhook' })
  @ApiZodResponse(checkoutSessionViewSchema)
  pay(@CurrentUser() user: AuthUser, @Param(new ZodPipe(checkoutIdParams)) p: z.output<typeof checkoutIdParams>) {
    return this.billing.payLocal(user.id, p.sessionId);
  }

  @Post('billing/checkout/:sessionId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel an open checkout session' })
  @ApiZodResponse(checkoutSessionViewSchema)
  cancel(@CurrentUser() user: AuthUser, @Param(new ZodPipe(checkoutIdParams)) p: z.output<typeof checkoutIdParams>) {
    return this.billing.cancelLocal(user.id, p.sessionId);
  }
}
