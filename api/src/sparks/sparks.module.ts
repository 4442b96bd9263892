import { Module } from '@nestjs/common';
import { ConversationsRepository, SparksRepository, type DbHandle } from '@sparks/db';
import { AuthModule } from '../auth/auth.module';
import { ChatService } from '../chat/chat.service';
import { LlmController, SparkChatController, SparkSysController } from '../chat/chat.controllers';
import { ConversationEventsService } from '../chat/conversation-events.service';
import { DB } from '../infra/tokens';
import { SparkTestsService } from './spark-tests.service';
import { SparksController } from './sparks.controller';
import { SparksService } from './sparks.service';

@Module({
  imports: [AuthModule],
  controllers: [SparksController, SparkChatController, SparkSysController, LlmController],
  providers: [
    { provide: SparksRepository, inject: [DB], useFactory: (h: DbHandle) => new SparksRepository(h.db) },
    { provide: ConversationsRepository, inject: [DB], useFactory: (h: DbHandle) => new ConversationsRepository(h.db) },
    SparksService,
    SparkTestsService,
    ChatService,
    ConversationEventsService,
  ],
  exports: [SparksService, SparksRepository, ConversationsRepository, ChatService, ConversationEventsService],
})
export class SparksModule {}
