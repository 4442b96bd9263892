import { Module } from '@nestjs/common';
import {
  ConversationsRepository,
  DocumentsRepository,
  ObjectivesRepository,
  SparksRepository,
  type DbHandle,
} from '@sparks/db';
import { ObjectivesController } from '../objectives/objectives.controller';
import { ObjectivesService } from '../objectives/objectives.service';
import { AuthModule } from '../auth/auth.module';
import { ChatService } from '../chat/chat.service';
import { LlmController, SparkChatController, SparkSysController } from '../chat/chat.controllers';
import { ConversationEventsService } from '../chat/conversation-events.service';
import { DB } from '../infra/tokens';
import { KnowledgeModule } from '../knowledge/knowledge.module';
import { SparkTestsService } from './spark-tests.service';
import { SparksController } from './sparks.controller';
import { SparksService } from './sparks.service';

@Module({
  imports: [AuthModule, KnowledgeModule],
  controllers: [SparksController, SparkChatController, SparkSysController, LlmController, ObjectivesController],
  providers: [
    { provide: SparksRepository, inject: [DB], useFactory: (h: DbHandle) => new SparksRepository(h.db) },
    { provide: ConversationsRepository, inject: [DB], useFactory: (h: DbHandle) => new ConversationsRepository(h.db) },
    { provide: ObjectivesRepository, inject: [DB], useFactory: (h: DbHandle) => new ObjectivesRepository(h.db) },
    { provide: DocumentsRepository, inject: [DB], useFactory: (h: DbHandle) => new DocumentsRepository(h.db) },
    SparksService,
    SparkTestsService,
    ObjectivesService,
    ChatService,
    ConversationEventsService,
  ],
  exports: [
    SparksService,
    SparksRepository,
    ObjectivesRepository,
    ConversationsRepository,
    ChatService,
    ConversationEventsService,
  ],
})
export class SparksModule {}
