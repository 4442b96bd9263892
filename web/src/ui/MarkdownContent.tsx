import { lazy, Suspense } from 'react';

// The markdown renderer is its own chunk: the first paint of the app does not wait for it.
const Markdown = lazy(() => import('./Markdown'));

/** A markdown reply; while the renderer loads, the plain text. */
export function MarkdownContent({ content }: { content: string }) {
  return (
    <Suspense fallback={<div className="chat-md chat-md--plain">{content}</div>}>
      <Markdown content={content} />
    </Suspense>
  );
}
