import { Controller, Headers, HttpCode, Inject, Optional, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { webhookReceiptSchema } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { Public } from '../../auth/public.decorator';
import { ApiZodResponse } from '../../common/zod';
import type { RawBodyRequest } from './raw-body';
import { StripeWebhookService } from './stripe-webhook.service';

export const STRIPE_WEBHOOK = Symbol('STRIPE_WEBHOOK');

/**
 * Stripe's webhook endpoint. Public: Stripe calls it with no user, and the signature (made with
 * STRIPE_WEBHOOK_SECRET over the raw body) is the credential; a bad one is 400 and changes nothing.
 * Without Stripe configured it does not exist (404).
 */
@ApiTags('billing')
@Controller('billing/webhooks')
export class StripeWebhookController {
  constructor(@Optional() @Inject(STRIPE_WEBHOOK) private readonly webhooks?: StripeWebhookService) {}

  @Public()
  @Post('stripe')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Stripe's events (signed with the webhook secret; 400 on a bad signature; 404 when Stripe is not configured)",
  })
  @ApiZodResponse(webhookReceiptSchema)
  receive(@Req() req: RawBodyRequest, @Headers('stripe-signature') signature: string | undefined) {
    if (!this.webhooks) throw DomainError.notFound();
    if (!req.rawBody) throw DomainError.of('INVALID_SIGNATURE');
    return this.webhooks.handle(req.rawBody, signature);
  }
}
