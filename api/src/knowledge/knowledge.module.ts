import { Module } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { ConversationsRepository, DocumentsRepository, SparksRepository, type DbHandle } from '@sparks/db';
import { createStorage } from '@sparks/knowledge';
import { CONFIG, DB } from '../infra/tokens';
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
    { provide: DocumentsRepository, inject: [DB], useFactory: (h: DbHandle) => new DocumentsRepository(h.db) },
    { provide: SparksRepository, inject: [DB], useFactory: (h: DbHandle) => new SparksRepository(h.db) },
    { provide: ConversationsRepository, inject: [DB], useFactory: (h: DbHandle) => new ConversationsRepository(h.db) },
    UploadService,
    UploadTmpSweeper,
    DocumentsService,
  ],
  exports: [DocumentsService, STORAGE],
})
export class KnowledgeModule {}
