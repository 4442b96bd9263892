import type { ChatMessageView, WidgetChoice } from '@sparks/contracts';

/**
 * The chat's payloads are defined once, in `@sparks/contracts` (chat.ts); the web imports their types
 * only, so that zod stays out of the bundle.
 */
export type { ChatHistory, ChatStreamEvent, IconChoice, Palette, WidgetPreviewData } from '@sparks/contracts';

/** A chat message as the API answers it (docs/product.md §3): human, ai or action, with its data. */
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
export type Choice = WidgetChoice;

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
