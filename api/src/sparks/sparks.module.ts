import { Module } from '@nestjs/common';
import { KnowledgeModule } from '../knowledge/knowledge.module';
import { SparkTestsService } from './spark-tests.service';
import { SparksController } from './sparks.controller';
import { SparksService } from './sparks.service';

/** Sparks and their tests (CRUD). The repositories come from the global `DatabaseModule`. */
@Module({
  imports: [KnowledgeModule],
  controllers: [SparksController],
  providers: [SparksService, SparkTestsService],
  exports: [SparksService, SparkTestsService],
})
export class SparksModule {}
