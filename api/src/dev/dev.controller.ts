import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { outboxQuerySchema, type OutboxMessage } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { EmailsRepository } from '@sparks/db';
import type { z } from 'zod';
import { LocalOnlyGuard } from '../common/local-only.guard';
import { ApiZodQuery, ZodPipe } from '../common/zod';
import { Public } from '../auth/public.decorator';
import { CONFIG } from '../infra/tokens';

@ApiTags('dev')
@Public()
@Controller('dev')
export class DevController {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly emails: EmailsRepository,
  ) {}

  @Get('outbox')
  @UseGuards(LocalOnlyGuard)
  @ApiOperation({
    summary: 'Mail kept instead of sent (embedded default only, local requests only), newest first',
  })
  @ApiZodQuery(outboxQuerySchema)
  async outbox(
    @Query(new ZodPipe(outboxQuerySchema)) query: z.output<typeof outboxQuerySchema>,
  ): Promise<OutboxMessage[]> {
    if (!this.config.DEV_OUTBOX) throw DomainError.notFound();
    const rows = await this.emails.outbox(query.to);
    return rows.map((r) => ({
      to: r.to,
      subject: r.subject,
      text: r.text ?? '',
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
