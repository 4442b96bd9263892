import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * Writes one turn of a conversation at its own time, as the app stores it: the human message and, when `answer` is
 * given, the assistant's reply 5 s later with that kind of answer (`data.answer`). Answers the reply's id.
 */
export async function seedTurn(
  sql: Pool,
  conversationId: string,
  turn: { at: Date | string; text: string; answer?: string },
): Promise<string | undefined> {
  const human = randomUUID();
  await sql.query(
    `INSERT INTO messages (id, conversation_id, type, data, created_at) VALUES ($1, $2, 'human', $3, $4)`,
    [human, conversationId, { content: turn.text }, turn.at],
  );
  if (!turn.answer) return undefined;
  const reply = randomUUID();
  await sql.query(
    `INSERT INTO messages (id, conversation_id, type, data, reply_to, reply_index, created_at)
     VALUES ($1, $2, 'ai', $3, $4, 0, $5)`,
    [
      reply,
      conversationId,
      { content: `Reply to ${turn.text}`, answer: turn.answer },
      human,
      new Date(new Date(turn.at).getTime() + 5000),
    ],
  );
  return reply;
}
