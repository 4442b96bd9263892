import { Controller, Get, Inject, Injectable, Query, UseGuards, type CanActivate } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { outboxQuerySchema, type OutboxMessage, outboxMessageSchema } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { EmailsRepository } from '@sparks/db';
import { z } from 'zod';
import { CONFIG } from '@sparks/nest';
import { LocalOnlyGuard } from '../common/local-only.guard';
import { ApiZodQuery, ZodPipe, ApiZodResponse } from '../common/zod';
import { Public } from '../auth/public.decorator';

/** Off, the outbox answers 404 before anything else (even a bad query), exactly like a missing route. */
@Injectable()
class DevOutboxOnGuard implements CanActivate {
  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (!this.config.DEV_OUTBOX) throw DomainError.notFound();
    return true;
  }
}

@ApiTags('dev')
@Public()
@Controller('dev')
export class DevController {
  constructor(private readonly emails: EmailsRepository) {}

  @Get('outbox')
  @UseGuards(DevOutboxOnGuard, LocalOnlyGuard)
  @ApiOperation({
    summary:
      'Mail kept instead of sent to one address (`to` is required), newest first. Only with DEV_OUTBOX on (never in production) and only for direct requests from this machine.',
  })
  @ApiZodQuery(outboxQuerySchema)
  @ApiZodResponse(z.array(outboxMessageSchema))
  async outbox(
    @Query(new ZodPipe(outboxQuerySchema)) query: z.output<typeof outboxQuerySchema>,
  ): Promise<OutboxMessage[]> {
    const rows = await this.emails.outbox(query.to);
    return rows.map((r) => ({
      to: r.to,
      subject: r.subject,
      text: r.text ?? '',
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
