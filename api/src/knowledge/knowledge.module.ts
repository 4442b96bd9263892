import { Module } from '@nestjs/common';
import { DocumentsService } from './documents.service';
import { KnowledgeController } from './knowledge.controller';
import { UploadTmpSweeper } from './upload-tmp.sweeper';
import { UploadService } from './upload.service';

/**
 * Documents of a Spark: upload (POST /bucket), listing, deletion and what the Spark read. The file store (`STORAGE`)
 * comes from `InfraModule` (`@sparks/nest`).
 */
@Module({
  controllers: [KnowledgeController],
  providers: [UploadService, UploadTmpSweeper, DocumentsService],
  exports: [DocumentsService],
})
export class KnowledgeModule {}
