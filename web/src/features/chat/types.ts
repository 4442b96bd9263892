import type { ChatMessageView } from '@sparks/contracts';

/** A chat message as the API answers it (spec §3): human, ai or action, with its data. */
export type ChatMessage = ChatMessageView;

/** Who the chat talks to: a system assistant, a Spark's builder, or one test of a Spark. */
export type ChatTarget =
  | {
      kind: 'system';
      name: 'main' | 'new-spark' | 'billing' | 'deploy' | 'settings' | 'profile' | 'onboarding';
      sparkId?: string;
    }
  | { kind: 'builder'; sparkId: string }
  | { kind: 'test'; sparkId: string; testId: string };

/** One entry of an `options`, `buttons` or `onboarding` widget: exactly one of value, goto or link. */
export interface Choice {
  label: string;
  value?: string;
  goto?: string;
  link?: string;
}

export interface Palette {
  name: string;
  primary: string;
  secondary: string;
}

export interface IconChoice {
  name: string;
  icon: string;
}

export interface WidgetPreviewData {
  name: string;
  initialMessage: string;
  language: string;
  palette: Palette | null;
  icon: string | null;
}

/** What the event stream of a chat sends, one JSON object per `data:` line. */
export type ChatStreamEvent =
  | { type: 'history'; messages: ChatMessage[]; sessionId: string; sparkId: string | null }
  | { type: 'token'; replyTo: string; messageId: string; text: string }
  | { type: 'message'; replyTo?: string | null; message: ChatMessage }
  | { type: 'done'; replyTo: string; messages: ChatMessage[] }
  | { type: 'error'; replyTo?: string; code: string; message: string };

/** A conversation to resume: its messages, its id and the Spark it belongs to. */
export interface ChatHistory {
  messages: ChatMessage[];
  sessionId: string;
  sparkId: string | null;
}

/** A stable key of a target (`system:main`, `builder:{id}`, `test:{id}:{testId}`). */
export function targetKey(target: ChatTarget): string {
  switch (target.kind) {
    case 'system':
      return `system:${target.name}:${target.sparkId ?? ''}`;
    case 'builder':
      return `builder:${target.sparkId}`;
    case 'test':
      return `test:${target.sparkId}:${target.testId}`;
  }
}

/** The Spark a target is about, when there is one. */
export function targetSparkId(target: ChatTarget): string | undefined {
  return target.sparkId;
}
