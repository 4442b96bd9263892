import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

/** GET /health, /health/live and /health/ready (open routes). */
@Module({ controllers: [HealthController] })
export class HealthModule {}
