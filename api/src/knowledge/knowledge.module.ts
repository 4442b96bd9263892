import { Module } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { createStorage } from '@sparks/knowledge';
import { CONFIG } from '../infra/tokens';
import { DocumentsService } from './documents.service';
import { KnowledgeController } from './knowledge.controller';
import { STORAGE } from './tokens';
import { UploadTmpSweeper } from './upload-tmp.sweeper';
import { UploadService } from './upload.service';

/** Documents of a Spark: upload (POST /bucket), listing, deletion and what the Spark read. */
@Module({
  controllers: [KnowledgeController],
  providers: [
    { provide: STORAGE, inject: [CONFIG], useFactory: (c: AppConfig) => createStorage(c) },
    UploadService,
    UploadTmpSweeper,
    DocumentsService,
  ],
  exports: [DocumentsService, STORAGE],
})
export class KnowledgeModule {}
