import type { AnchorHTMLAttributes, ImgHTMLAttributes } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

import { safeUrl } from '../urls';

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

function Image({ src, alt, node: _node, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { node?: unknown }) {
  if (!src || typeof src !== 'string') return alt ? <span>{alt}</span> : null;
  return <img {...rest} src={src} alt={alt ?? ''} loading="lazy" referrerPolicy="no-referrer" />;
}

const components: Components = { a: Link, img: Image };

/**
 * A reply in markdown (spec §5): GitHub flavour (tables, task lists, strikethrough, autolinks), no raw
 * HTML (it shows as text), links and images only with the allowed schemes, links in a new tab.
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
