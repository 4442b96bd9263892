import { START_KEYWORD } from '@sparks/contracts/rules';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';

import { isApiError, type ApiError } from '../../../api/client';
import { loadHistory, streamChat } from '../api';
import { isEventMessage, isStale } from '../display';
import { forgetConversation, readConversation, writeConversation } from '../storage';
import type { ChatHistory, ChatMessage, ChatStreamEvent, ChatTarget } from '../types';
import { chatReducer, initialChatState, nextReveal, revealedMessages } from './chatState';

/**
 * Why a message could not be sent: the plan's limit (402, with its code: TRIAL_ENDED, OUT_OF_INTERACTIONS…) or
 * anything else (with the server's text).
 */
export type SendProblem = { kind: 'upgrade'; code?: string } | { kind: 'error'; message?: string };

export interface UseChatOptions {
  autoStart?: boolean;
  initialText?: string;
  /** After each reply lands, and when a Spark or a test was created. */
  onMessages?: () => void;
  onProblem: (problem: SendProblem) => void;
  /** When the assistant last spoke longer ago than this, the conversation gets a fresh welcome (/deploy). */
  freshAfterMs?: number;
  /** Each event action of a reply (`data.type === 'event'`), once the reply is done. */
  onEvent?: (data: Record<string, unknown>) => void;
}

const isNotFound = (error: unknown): error is ApiError => isApiError(error) && error.status === 404;

/**
 * One conversation with a target: resumes the stored one (docs/product.md §3 storage keys; an id the server no longer
 * knows is dropped), starts it with 'inicio' when asked and it is empty, sends messages over the event
 * stream and shows the reply as it arrives — token by token, then each stored message in its turn.
 */
export function useChat(
  target: ChatTarget,
  { autoStart, initialText, onMessages, onProblem, freshAfterMs, onEvent }: UseChatOptions,
) {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const [now, setNow] = useState(() => Date.now());
  const sessionRef = useRef<string | null>(null);
  const sendingRef = useRef(false);
  const abortRef = useRef<AbortController | null>(null);
  const latest = useRef({ onMessages, onProblem, onEvent, target });
  latest.current = { onMessages, onProblem, onEvent, target };

  const signal = () => {
    abortRef.current ??= new AbortController();
    return abortRef.current.signal;
  };

  // Leaving the page stops reading: the server keeps the reply anyway.
  useEffect(() => {
    const controller = new AbortController();
    abortRef.current = controller;
    return () => controller.abort();
  }, []);

  /** Reads the conversation from the server; an id it no longer knows is forgotten. */
  const fetchHistory = useCallback(async (): Promise<ChatHistory | null> => {
    const { target: current } = latest.current;
    const stored = sessionRef.current;
    try {
      return await loadHistory(current, stored);
    } catch (error) {
      if (!stored || !isNotFound(error)) throw error;
      forgetConversation(current);
      sessionRef.current = null;
      return loadHistory(current, null);
    }
  }, []);

  const reload = useCallback(async () => {
    try {
      const history = await fetchHistory();
      if (signal().aborted) return;
      if (history) sessionRef.current = history.sessionId;
      dispatch({ type: 'loaded', history });
    } catch (error) {
      if (!signal().aborted) console.error('Failed to load the conversation', error);
    }
  }, [fetchHistory]);

  const send = useCallback(
    async (raw: string): Promise<boolean> => {
      const text = raw.trim();
      // docs/product.md §5: empty or whitespace-only content is discarded.
      if (!text || sendingRef.current) return false;
      sendingRef.current = true;
      dispatch({ type: 'send', text, at: Date.now() });
      const abort = signal();
      let stored = false;
      let finished = false;
      const onEvent = (event: ChatStreamEvent) => {
        if (abort.aborted) return;
        switch (event.type) {
          case 'history':
            stored = true;
            sessionRef.current = event.sessionId;
            dispatch({
              type: 'history',
              messages: event.messages ?? [],
              sessionId: event.sessionId,
              sparkId: event.sparkId ?? null,
            });
            return;
          case 'token':
            dispatch({ type: 'token', messageId: event.messageId, replyTo: event.replyTo, text: event.text ?? '' });
            return;
          case 'message':
            if (!event.message) return;
            dispatch({ type: 'messages', messages: [event.message], at: Date.now() });
            if (isEventMessage(event.message)) latest.current.onMessages?.();
            return;
          case 'done':
            finished = true;
            dispatch({ type: 'messages', messages: event.messages ?? [], at: Date.now() });
            latest.current.onMessages?.();
            for (const message of event.messages ?? [])
              if (isEventMessage(message) && message.data) latest.current.onEvent?.(message.data);
            return;
          case 'error':
            finished = true;
            console.error('Failed to send message', event.code);
            latest.current.onProblem({ kind: 'error', message: event.message });
            return;
        }
      };
      try {
        const run = (sessionId: string | null) =>
          streamChat({ target: latest.current.target, text, sessionId, signal: abort, onEvent });
        try {
          await run(sessionRef.current);
        } catch (error) {
          // A stored conversation the server no longer knows: forget it and start a new one.
          if (!isNotFound(error) || !sessionRef.current || stored) throw error;
          forgetConversation(latest.current.target);
          sessionRef.current = null;
          await run(null);
        }
        // The stream ended early (a proxy, the network): the server kept the reply, read it from there.
        if (!finished && !abort.aborted) await reload();
        return true;
      } catch (error) {
        if (abort.aborted) return stored;
        console.error('Failed to send message', error);
        // A disabled account needs no error of its own: the layout's inactive-tenant modal says so.
        const inactive = isApiError(error) && error.hasCode('ACCOUNT_INACTIVE');
        if (isApiError(error) && error.status === 402)
          latest.current.onProblem({ kind: 'upgrade', ...(error.code ? { code: error.code } : {}) });
        else if (!inactive)
          latest.current.onProblem({ kind: 'error', message: isApiError(error) ? error.message : undefined });
        if (stored) void reload();
        return stored;
      } finally {
        sendingRef.current = false;
        if (!abort.aborted) dispatch({ type: 'settled' });
      }
    },
    [reload],
  );

  // Resume (cached messages first, then the server's), then start or send the first message if asked.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const { target: current } = latest.current;
    const cached = readConversation(current);
    if (cached) {
      sessionRef.current = cached.sessionId;
      dispatch({ type: 'cached', messages: cached.messages, sessionId: cached.sessionId, sparkId: cached.sparkId });
    }
    void (async () => {
      let history: ChatHistory | null = null;
      try {
        history = await fetchHistory();
      } catch (error) {
        if (signal().aborted) return;
        console.error('Failed to load the conversation', error);
        dispatch({ type: 'loaded', history: cached ? { ...cached } : null });
        return;
      }
      if (signal().aborted) return;
      if (history) sessionRef.current = history.sessionId;
      dispatch({ type: 'loaded', history });
      if (initialText?.trim()) await send(initialText);
      else if (autoStart && (!history || history.messages.length === 0)) await send(START_KEYWORD);
      // docs/product.md §4: an assistant message older than the limit brings a fresh welcome (the hidden start keyword).
      else if (freshAfterMs !== undefined && history && isStale(history.messages, freshAfterMs))
        await send(START_KEYWORD);
    })();
    // Runs once per mounted panel (the panel is keyed by its target).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Keep the conversation in the browser (docs/product.md §3), without event messages (docs/product.md §4).
  useEffect(() => {
    if (state.loading || !state.sessionId) return;
    writeConversation(latest.current.target, {
      sessionId: state.sessionId,
      sparkId: state.sparkId,
      messages: state.messages,
    });
  }, [state.loading, state.messages, state.sessionId, state.sparkId]);

  // Reveal the waiting messages of a reply one by one.
  const upcoming = nextReveal(state, now);
  useEffect(() => {
    if (upcoming === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, upcoming - Date.now()));
    return () => clearTimeout(timer);
  }, [upcoming]);

  const visible: ChatMessage[] = revealedMessages(state, now);
  const revealing = upcoming !== null;

  return {
    loading: state.loading,
    messages: visible,
    pending: state.pending,
    streams: state.streams,
    sending: state.sending,
    /** Replies still arriving or waiting to show. */
    busy: state.sending || revealing,
    sessionId: state.sessionId,
    sparkId: state.sparkId,
    send,
    reload,
  };
}
