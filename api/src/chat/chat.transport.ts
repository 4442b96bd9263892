import type { ChatMessageView } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { toWireMessage } from '@sparks/db';
import type { Response } from 'express';
import { openEventStreams } from '../metrics/metrics';
import type { ChatTurn } from './converse';

/*
 * The transports of a chat turn, at the edge: the use cases in ChatService return a `ChatTurn`
 * (its events); these write it to the client. The public widget API uses the same two.
 */

const HEARTBEAT_MS = 15_000;

/** The event streams this process has open, so that a shutdown can end them (see {@link endEventStreams}). */
const openStreams = new Set<Response>();

/**
 * On shutdown (SIGTERM): ends every open event stream now, cleanly, instead of leaving them to be cut when the
 * process exits. A client whose stream ends before `done` reads the conversation again (web/src/features/chat:
 * "the stream ended early"), which a load balancer sends to another replica; the worker goes on and stores the
 * reply meanwhile. Answers how many were ended.
 */
export function endEventStreams(): number {
  const count = openStreams.size;
  for (const res of openStreams) if (!res.writableEnded) res.end();
  openStreams.clear();
  return count;
}

/**
 * Event stream (text/event-stream). The first `data:` line is `{ type: 'history', messages,
 * sessionId, sparkId }` (the turn must be started with `history: true`); then the turn's events as
 * they come (tokens, messages) and a final `done` or `error`. A client that leaves loses nothing:
 * the worker goes on and stores the reply.
 */
export async function writeEventStream(res: Response, turn: ChatTurn): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  openEventStreams.inc();
  openStreams.add(res);
  const send = (payload: unknown) => {
    if (!res.writableEnded) res.write(`data: ${JSON.stringify(payload)}\n\n`);
  };
  send({
    type: 'history',
    messages: (turn.history ?? [turn.human]).map(toWireMessage),
    sessionId: turn.conversation.id,
    sparkId: turn.conversation.sparkId,
  });
  const heartbeat = setInterval(() => {
    if (!res.writableEnded) res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  // A client that left lets go of the channel (the job still runs and persists the reply).
  res.on('close', () => turn.close());
  try {
    for await (const event of turn.events) send(event);
  } finally {
    openStreams.delete(res);
    openEventStreams.dec();
    clearInterval(heartbeat);
    if (!res.writableEnded) res.end();
  }
}

export interface JsonAnswer {
  /** The last AI message of the reply, if any. */
  ai: ChatMessageView | null;
  messages: ChatMessageView[];
  human: ChatMessageView;
}

/**
 * One JSON answer: waits for the turn's outcome (at most REPLY_TIMEOUT_MS). A failed reply is an
 * error envelope: REPLY_FAILED (502), ASSISTANT_UNAVAILABLE (503) or REPLY_TIMEOUT (504).
 */
export async function answerAsJson(turn: ChatTurn): Promise<JsonAnswer> {
  for await (const event of turn.events) {
    if (event.type === 'done') {
      const ai = [...event.messages].reverse().find((m) => m.type === 'ai') ?? null;
      return { ai, messages: event.messages, human: toWireMessage(turn.human) };
    }
    if (event.type === 'error') {
      const code = event.code;
      throw new DomainError({
        code: code === 'REPLY_TIMEOUT' || code === 'ASSISTANT_UNAVAILABLE' ? code : 'REPLY_FAILED',
      });
    }
  }
  throw new DomainError({ code: 'REPLY_FAILED' });
}
