import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { LlmController, SparkChatController, SparkSysController } from './chat.controllers';
import { ChatService } from './chat.service';
import { ConversationEventsService } from './conversation-events.service';

/** Conversations: the builder, test chats, system assistants, their history and live events. */
@Module({
  imports: [SparksModule],
  controllers: [SparkChatController, SparkSysController, LlmController],
  providers: [ChatService, ConversationEventsService],
  exports: [ChatService],
})
export class ChatModule {}
