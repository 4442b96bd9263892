import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { lazyComponent } from '../../../ui/lazyComponent';
import { cutName, describeDate, documentIdOf, documentNameLimit, type DisplayItem } from '../display';
import type { Choice } from '../types';
import type { WidgetProps } from '../widgets/Widget';
import { AnswerRating, isRateable, type KeepAnswer, type RateAnswer } from './AnswerRating';
import { DocumentTitle, type DocumentTitleInfo } from './DocumentTitle';
import { MarkdownContent } from '../../../ui/MarkdownContent';
import { DocumentIcon } from './UiIcons';

export interface MessageListProps {
  items: DisplayItem[];
  streams: Array<{ messageId: string; text: string }>;
  loading: boolean;
  /** The assistant is answering (or its reply waits to show). */
  typing: boolean;
  upload: { phase: 'idle' | 'uploading' | 'reading'; name: string };
  /**
   * The Spark's documents by id (its chat only): where an imported one came from (the documents list's
   * `source.text`) and the title customers read as its source.
   */
  documents?: ReadonlyMap<string, UploadedDocument>;
  /** Gives a document the title customers read (null: the file name); absent, titles are not shown. */
  onRetitle?: (documentId: string, title: string | null) => Promise<unknown>;
  /** Rates an answer (a test chat only): absent, answers show no rating. */
  onRate?: RateAnswer;
  /** Keeps a right answer as an answer check (a test chat only). */
  onKeep?: KeepAnswer;
  /** Widgets are usable (no reply on its way). */
  interactive: boolean;
  onChoose: (choice: Choice) => void;
  welcome?: ReactNode;
}

/**
 * The widgets (options, palettes, icons, previews) only show with the server's messages, so their code is not part
 * of the first download: the list fetches it as it mounts, alongside the conversation.
 */
const widgets = lazyComponent<WidgetProps>(() => import('../widgets/Widget').then((module) => module.Widget));

function Widget(props: WidgetProps) {
  const Loaded = widgets.useLoaded();
  useEffect(() => {
    if (!Loaded) widgets.load().catch((error: unknown) => console.error('Failed to load the chat widgets', error));
  }, [Loaded]);
  return Loaded ? <Loaded {...props} /> : null;
}

function useWindowWidth(): number | undefined {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? undefined : window.innerWidth));
  useEffect(() => {
    const update = () => setWidth(window.innerWidth);
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return width;
}

/** When a message was written: Today / Yesterday / day and month, with the time (docs/product.md §4). */
export function MessageDate({ date }: { date: Date }) {
  const { t, i18n } = useTranslation('chat');
  const label = describeDate(date, new Date(), i18n.resolvedLanguage ?? i18n.language);
  const text =
    label.day === 'today'
      ? t('message.today', { time: label.time })
      : label.day === 'yesterday'
        ? t('message.yesterday', { time: label.time })
        : t('message.onDay', { date: label.dayMonth, time: label.time });
  return (
    <time className="chat-msg__date" dateTime={date.toISOString()}>
      {text}
    </time>
  );
}

interface UploadedDocument extends DocumentTitleInfo {
  source?: string;
}

interface UploadBubbleProps {
  name: string;
  width: number | undefined;
  document?: UploadedDocument;
  onRetitle?: (title: string | null) => Promise<unknown>;
}

/**
 * "You uploaded {document}"; a document imported from SharePoint or OneDrive says so, with where it came from
 * ("from SharePoint: Sites/Bakery/Menu.pdf", the documents list's `source`). In the Spark's chat, the title customers
 * read as its source follows, with a way to change it.
 */
function UploadBubble({ name, width, document, onRetitle }: UploadBubbleProps) {
  const { t } = useTranslation('chat');
  const source = document?.source;
  const fullName = name || t('message.aDocument');
  const shown = cutName(fullName, documentNameLimit(width));
  const key = source ? 'message.imported' : 'message.uploaded';
  return (
    <div className="chat-bubble chat-bubble--upload" title={source ?? fullName}>
      <DocumentIcon />
      <span className="chat-bubble__upload-text">
        <span aria-hidden="true">{t(key, { document: shown })}</span>
        <span className="visually-hidden">{t(key, { document: fullName })}</span>
        {source && (
          <span className="chat-bubble__source" data-testid="document-source">
            {source}
          </span>
        )}
        {document && onRetitle && <DocumentTitle document={document} onSave={onRetitle} />}
      </span>
    </div>
  );
}

function Typing({ label }: { label: string }) {
  return (
    <div className="chat-msg chat-msg--assistant">
      <div className="chat-bubble chat-bubble--typing">
        <span className="chat-typing" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <span className="visually-hidden">{label}</span>
      </div>
    </div>
  );
}

/**
 * The conversation (docs/product.md §4 display rules applied by `toDisplayItems`): a live log that keeps to its end
 * whenever messages, streamed text or the loading state change.
 */
export function MessageList({
  items,
  streams,
  loading,
  typing,
  upload,
  interactive,
  onChoose,
  welcome,
  documents,
  onRetitle,
  onRate,
  onKeep,
}: MessageListProps) {
  const { t } = useTranslation('chat');
  const log = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  /** The reader is at the end of the conversation (not reading back). */
  const atEnd = useRef(true);
  const width = useWindowWidth();
  const streamed = streams.map((s) => s.text).join('');

  useEffect(() => {
    widgets.load().catch(() => undefined);
  }, []);

  // Only the log scrolls: scrollIntoView would also scroll its clipped ancestors (the page body),
  // shifting the composer off the bottom when the layout changes under it (a window made narrower).
  const toEnd = () => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  };

  // docs/product.md §4: scroll to the bottom when the history or the loading state changes.
  useLayoutEffect(() => {
    atEnd.current = true;
    toEnd();
  }, [items.length, loading, typing, streamed, upload.phase]);

  // Later growth (a reply's markdown rendered, an image loaded, a resized window) keeps the end in view,
  // unless the reader scrolled back.
  useEffect(() => {
    const element = log.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const onScroll = () => {
      atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
    };
    const observer = new ResizeObserver(() => {
      if (atEnd.current) toEnd();
    });
    observer.observe(element);
    if (content.current) observer.observe(content.current);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, []);

  return (
    <div
      ref={log}
      className="chat-log"
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-busy={loading || streams.length > 0}
      aria-label={t('panel.log')}
      tabIndex={0}
    >
      <div ref={content} className="chat-log__content">
        {welcome}
        {loading && items.length === 0 && (
          <p className="chat-log__loading">
            <span className="spinner" aria-hidden="true" /> {t('panel.loading')}
          </p>
        )}
        {items.map((item) => {
          const who = item.kind === 'human' || item.kind === 'upload' ? 'human' : 'assistant';
          return (
            <div key={item.key} className={`chat-msg chat-msg--${who} chat-msg--is-${item.kind}`}>
              <span className="visually-hidden">{who === 'human' ? t('message.you') : t('message.assistant')}: </span>
              {item.kind === 'human' && (
                <div className="chat-bubble chat-bubble--human">
                  {item.verdict === undefined
                    ? item.content
                    : t(item.verdict ? 'message.testSatisfactory' : 'message.testNotSatisfactory')}
                </div>
              )}
              {item.kind === 'upload' && (
                <UploadBubble
                  name={item.name}
                  width={width}
                  document={documents?.get(documentIdOf(item.message))}
                  onRetitle={onRetitle && ((title) => onRetitle(documentIdOf(item.message), title))}
                />
              )}
              {item.kind === 'assistant' && (
                <div className={`chat-bubble chat-bubble--assistant chat-bubble--${item.variant}`}>
                  <MarkdownContent content={item.content} />
                </div>
              )}
              {item.kind === 'assistant' && onRate && isRateable(item.message) && (
                <AnswerRating message={item.message} onRate={onRate} onKeep={onKeep} />
              )}
              {item.kind === 'widget' && (
                <Widget
                  widget={item.widget}
                  message={item.message}
                  enabled={item.interactive && interactive && item.chosen === undefined}
                  chosen={item.chosen}
                  onChoose={onChoose}
                />
              )}
              {item.showDate && <MessageDate date={item.date} />}
            </div>
          );
        })}
        {upload.phase === 'uploading' && (
          <div className="chat-msg chat-msg--human">
            <div className="chat-bubble chat-bubble--upload chat-bubble--pending" role="status">
              <span className="spinner spinner--button" aria-hidden="true" />
              <span>{t('panel.uploading')}</span>
            </div>
          </div>
        )}
        {streams.map((stream) => (
          <div key={stream.messageId} className="chat-msg chat-msg--assistant chat-msg--streaming">
            <div className="chat-bubble chat-bubble--assistant">
              <MarkdownContent content={stream.text} />
            </div>
          </div>
        ))}
        {typing && streams.length === 0 && <Typing label={t('panel.typing')} />}
        {upload.phase === 'reading' && !typing && <Typing label={t('panel.reading', { name: upload.name })} />}
      </div>
    </div>
  );
}
