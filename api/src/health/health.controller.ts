import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Health } from '@sparks/contracts';
import type { DbHandle } from '@sparks/db';
import type { Redis } from 'ioredis';
import { Public } from '../auth/public.decorator';
import { DB, REDIS } from '../infra/tokens';
import { APP_VERSION } from '../version';

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(DB) private readonly dbHandle: DbHandle,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  @HttpCode(200)
  @ApiOkResponse({ description: 'Database and Redis are reachable (503 when either is not).' })
  async check(@Res({ passthrough: true }) res: Response): Promise<Health> {
    const [db, redis] = await Promise.all([
      withTimeout(this.dbHandle.pool.query('SELECT 1'), 2000).then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      withTimeout(this.redis.ping(), 2000).then(
        () => 'up' as const,
        () => 'down' as const,
      ),
    ]);
    const status = db === 'up' && redis === 'up' ? 'ok' : 'degraded';
    if (status !== 'ok') res.status(503);
    return { status, db, redis, version: APP_VERSION };
  }
}
