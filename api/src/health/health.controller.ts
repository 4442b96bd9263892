import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  healthSchema,
  livenessSchema,
  readinessSchema,
  type Health,
  type Liveness,
  type Readiness,
} from '@sparks/contracts';
import { pendingMigrations, type DbHandle } from '@sparks/db';
import type { Redis } from 'ioredis';
import { DB, REDIS } from '@sparks/nest';
import { Public } from '../auth/public.decorator';
import { APP_VERSION } from '../version';
import { ApiZodResponse } from '../common/zod';

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

/**
 * Three probes. `/health` (kept for load balancers and compose): database and Redis answer.
 * `/health/live`: the process answers (restart it when not). `/health/ready`: it can serve —
 * database and Redis answer and the schema is migrated (take it out of rotation when not).
 */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  /** Once every migration is applied it stays so for this process's code: asked until then. */
  private migrated = false;

  constructor(
    @Inject(DB) private readonly dbHandle: DbHandle,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  private async dependencies(): Promise<Pick<Health, 'db' | 'redis'>> {
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
    return { db, redis };
  }

  @Get()
  @HttpCode(200)
  @ApiZodResponse(healthSchema, {
    description: 'Database and Redis are reachable (503 with the same body when either is not).',
  })
  async check(@Res({ passthrough: true }) res: Response): Promise<Health> {
    const { db, redis } = await this.dependencies();
    const status = db === 'up' && redis === 'up' ? 'ok' : 'degraded';
    if (status !== 'ok') res.status(503);
    return { status, db, redis, version: APP_VERSION };
  }

  @Get('live')
  @HttpCode(200)
  @ApiZodResponse(livenessSchema, { description: 'Liveness: the process answers; asks nothing it depends on.' })
  live(): Liveness {
    return { status: 'ok', version: APP_VERSION };
  }

  @Get('ready')
  @HttpCode(200)
  @ApiZodResponse(readinessSchema, {
    description:
      'Readiness: database and Redis answer and every migration is applied (503 with the same body otherwise).',
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    const { db, redis } = await this.dependencies();
    let migrations: Readiness['migrations'] = 'unknown';
    if (this.migrated) migrations = 'applied';
    else if (db === 'up') {
      migrations = await withTimeout(
        pendingMigrations((sql) => this.dbHandle.pool.query(sql)),
        2000,
      ).then(
        (pending) => (pending === 0 ? 'applied' : 'pending'),
        () => 'unknown' as const,
      );
      this.migrated = migrations === 'applied';
    }
    const status = db === 'up' && redis === 'up' && migrations === 'applied' ? 'ok' : 'degraded';
    if (status !== 'ok') res.status(503);
    return { status, db, redis, migrations, version: APP_VERSION };
  }
}
