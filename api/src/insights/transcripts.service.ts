import { Injectable } from '@nestjs/common';
import { isStartKeyword, type TranscriptSummary, type TranscriptView } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { ConversationsRepository, FeedbackRepository, toRatedWireMessages, type TranscriptRow } from '@sparks/db';
import { SparksService } from '../sparks/sparks.service';

const header = (t: TranscriptRow) => ({
  conversationId: t.id,
  title: t.title,
  verdict: t.verdict,
  judgedAt: t.judgedAt.toISOString(),
});

/**
 * The transcripts of a Spark's judged tests (issue 35 item 2), owner only: kept when the owner answers "Was the test
 * OK?" (`DELETE /sparks/{sparkId}/tests/{testId}?verdict=`), to read again and rate their answers (the ratings go
 * through `FeedbackService` as a test chat's do: a transcript is still a test conversation of the owner's Spark).
 */
@Injectable()
export class TranscriptsService {
  constructor(
    private readonly sparks: SparksService,
    private readonly conversations: ConversationsRepository,
    private readonly feedback: FeedbackRepository,
  ) {}

  async list(userId: string, sparkId: string): Promise<TranscriptSummary[]> {
    await this.sparks.owned(userId, sparkId);
    return (await this.conversations.transcripts(userId, sparkId)).map((t) => ({
      ...header(t),
      questions: t.questions,
    }));
  }

  /** The messages as the test chat's history gave them (without the start keyword), with the owner's ratings. */
  async get(userId: string, sparkId: string, conversationId: string): Promise<TranscriptView> {
    await this.sparks.owned(userId, sparkId);
    const transcript = await this.conversations.transcript(userId, sparkId, conversationId);
    if (!transcript) throw DomainError.notFound();
    const [messages, ratings] = await Promise.all([
      this.conversations.history(transcript.id),
      this.feedback.ofConversation(transcript.id, 'owner'),
    ]);
    const said = messages.filter((m) => m.type !== 'human' || !isStartKeyword(m.data.content ?? ''));
    return { ...header(transcript), messages: toRatedWireMessages(said, ratings) };
  }

  async remove(userId: string, sparkId: string, conversationId: string): Promise<{ deleted: true }> {
    await this.sparks.owned(userId, sparkId);
    if (!(await this.conversations.deleteTranscript(userId, sparkId, conversationId))) throw DomainError.notFound();
    return { deleted: true };
  }
}
