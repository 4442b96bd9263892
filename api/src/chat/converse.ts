import type { Language } from '@sparks/core';
import type { ConversationRow, MessageRow } from '@sparks/db';
import type { ConversationEvent } from '@sparks/queues';

/*
 * The seams of a chat turn (`ChatService.converse`), for the transports and the callers that are
 * not the signed-in app: the public website widget (a visitor of a deployed Spark) and billing (an
 * interaction reserved before a Spark answers, settled or released after). See docs/decisions.md,
 * "Chat use cases return events; transports live at the edge".
 */

/** A signed-in user of the app (the JWT's subject). */
export interface UserCaller {
  kind: 'user';
  userId: string;
}

/**
 * A visitor of a deployed Spark on a website: no account, identified by the Spark's deploy token
 * (which the widget API has already resolved to `sparkId`) and a visitor id the widget keeps.
 * Whoever resolves a visitor's conversation checks that it belongs to this Spark and visitor
 * before calling `converse`.
 */
export interface VisitorCaller {
  kind: 'visitor';
  sparkId: string;
  deployToken: string;
  visitorId: string;
}

/** Who is talking in a turn. Access is checked by the use case before `converse` runs. */
export type ChatCaller = UserCaller | VisitorCaller;

export const userCaller = (userId: string): UserCaller => ({ kind: 'user', userId });

/** What a meter is told about the turn it is asked to reserve for. */
export interface MeterContext {
  caller: ChatCaller;
  conversation: ConversationRow;
  /** The message as it will be stored (trimmed): the start keyword of a test is not billed. */
  text: string;
}

/** How a turn ended, for `settle`: the worker's reply (its messages). */
export interface TurnAnswer {
  human: MessageRow;
  messages: Extract<ConversationEvent, { type: 'done' }>['messages'];
}

/**
 * Why a turn ended without an answer, for `release`: an error code (`REPLY_FAILED`,
 * `ASSISTANT_UNAVAILABLE`, `REPLY_TIMEOUT`) or `NOT_SENT` when the message could not be stored or
 * handed to the worker (nothing was asked, nothing will be answered).
 */
export interface TurnFailure {
  code: string;
}

/**
 * The billing seam. `converse` calls `reserve` before it stores the message (a throw refuses the
 * turn: throw a `DomainError` with the limit's code and nothing is stored or asked), then exactly
 * one of `settle` (the Spark answered: the `done` event) or `release` (an `error` event, the reply
 * timeout, or a failure to hand the message over). With a meter, the turn keeps listening until
 * its outcome even when the client leaves, so a reservation is never left open. `settle` and
 * `release` must not throw to the caller: their failures are logged and swallowed.
 */
export interface InteractionMeter<R = unknown> {
  reserve(context: MeterContext): Promise<R>;
  settle(reservation: R, answer: TurnAnswer): Promise<void>;
  release(reservation: R, failure: TurnFailure): Promise<void>;
}

/**
 * Provide an `InteractionMeter` under this token (from a global module) to meter every turn;
 * a meter passed in `TurnOptions` takes precedence for that turn.
 */
export const INTERACTION_METER = Symbol('INTERACTION_METER');

export interface TurnOptions {
  /** The language of the messages the api itself writes (the reply timeout's). */
  language: Language;
  /** Read the conversation so far along with storing the message (the event stream starts with it). */
  history?: boolean;
  meter?: InteractionMeter;
}

/**
 * One turn of a conversation, started: the human message is stored and the worker asked. `events`
 * yields what the worker publishes for this turn (tokens, messages) and ends after a `done` or an
 * `error` (the reply timeout is an `error` with code REPLY_TIMEOUT). One consumer only.
 */
export interface ChatTurn {
  conversation: ConversationRow;
  human: MessageRow;
  /** With `history: true`: the conversation up to and including `human`, oldest first. */
  history?: MessageRow[];
  events: AsyncIterable<ConversationEvent>;
  /** The client left: stop relaying. The worker still answers and stores the reply. */
  close(): void;
}
