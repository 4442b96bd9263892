import type { AnchorHTMLAttributes, ImgHTMLAttributes } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

import { safeUrl } from '../chat-core/urls';

const remarkPlugins = [remarkGfm];

function Link({ href, children, node: _node, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) {
  // An address the allow-list emptied is no link at all.
  if (!href) return <span className="chat-md__dead-link">{children}</span>;
  return (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Whether an address (absolute, protocol-relative or relative) points at the app's own origin. */
function sameOrigin(src: string): boolean {
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Only images of the app's own origin load. One from elsewhere (a reply or a quoted document may hold any
 * address, and loading it would tell that server who read the reply, and when) becomes a link to open it.
 */
function Image({ src, alt, node: _node, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { node?: unknown }) {
  if (!src || typeof src !== 'string') return alt ? <span>{alt}</span> : null;
  if (!sameOrigin(src)) return <Link href={src}>{alt || src}</Link>;
  return <img {...rest} src={src} alt={alt ?? ''} loading="lazy" referrerPolicy="no-referrer" />;
}

const components: Components = { a: Link, img: Image };

/**
 * A reply in markdown (docs/product.md §5): GitHub flavour (tables, task lists, strikethrough, autolinks), no raw
 * HTML (it shows as text), links and images only with the allowed schemes, links in a new tab, images
 * only from the app's origin (others as links).
 */
export default function Markdown({ content }: { content: string }) {
  return (
    <div className="chat-md">
      <ReactMarkdown remarkPlugins={remarkPlugins} urlTransform={safeUrl} components={components}>
        {content}
      </ReactMarkdown>
    </div>
  );
}
