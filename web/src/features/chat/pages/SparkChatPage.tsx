import { SHAREPOINT_CONNECTED_QUERY } from '@sparks/contracts/rules';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';

import { useNavigate, useSearchParams } from '../../../lib/router';
import { ChartIcon, CloseIcon, QuestionIcon } from '../../../ui/icons';
import { clearActiveSparkId, setActiveSparkId } from '../../sparks/activeSpark';
import { checksKey } from '../../insights/api';
import { useChecks } from '../../insights/ChecksSection';
import { UnansweredPanel, useUnanswered } from '../../insights/UnansweredPanel';
import { setChatMode, useChatMode } from '../../sparks/chatMode';
import { EditableTitle } from '../../sparks/components/EditableTitle';
import { SparkNotFound } from '../../sparks/components/SparkNotFound';
import { useSpark, useSparkActions } from '../../sparks/hooks';
import { isSparkMissing } from '../../sparks/missing';
import '../../sparks/sparks.css';
import { ChatPageFrame } from '../components/ChatPageFrame';
import { ChatPanel } from '../components/ChatPanel';
import { TranscriptMessages } from '../components/TranscriptMessages';
import { useAfterReply } from '../hooks/useAfterReply';

/**
 * /spark/{sparkId}: the Spark's builder chat under a header with the editable title, the spark tag (TEST in
 * test mode, else the Spark type), the objectives button and the close button. Opening it makes the Spark the
 * active one (storage and cookie) and the chat mode Normal; a Spark the server does not know for this user
 * (another user's, deleted, or a mistyped id) shows "Spark not found" inside the app and the user stays signed in (issue 18
 * item 8, a departure from docs/product.md §4 recorded in docs/decisions.md).
 */
export default function SparkChatPage() {
  const { t } = useTranslation(['sparks', 'layout', 'chat']);
  const { sparkId = '' } = useParams();
  // A test verdict sent from the test page comes back with ?refresh=…: reload the conversation once, and take
  // the parameter out of the address (issue 18: it stayed in the URL).
  const [params, setParams] = useSearchParams();
  const refresh = params.get('refresh');
  const [reloads, setReloads] = useState(0);
  /** The remounted chat's first message is the request to add a document from SharePoint (below). */
  const [request, setRequest] = useState(false);
  useEffect(() => {
    if (refresh === null) return;
    setRequest(false);
    setReloads((count) => count + 1);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('refresh');
        return next;
      },
      { replace: true },
    );
  }, [refresh, setParams]);
  // docs/product.md §2: back from connecting Microsoft 365 (`q=sharepoint-conected`), the conversation starts over with a
  // request to add a document from it; the parameter leaves the address so that a reload does not repeat it.
  const connected = params.get('q') === SHAREPOINT_CONNECTED_QUERY;
  // Once per arrival: the effect may run again before the address has changed (the language's texts loading).
  const handled = useRef(false);
  useEffect(() => {
    if (!connected) {
      handled.current = false;
      return;
    }
    if (handled.current) return;
    handled.current = true;
    setRequest(true);
    setReloads((count) => count + 1);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [connected, setParams]);
  const navigate = useNavigate();
  const { data: spark, error } = useSpark(sparkId);
  const { rename } = useSparkActions();
  const mode = useChatMode();
  const afterReply = useAfterReply(sparkId, sparkId);
  const notFound = isSparkMissing(error);
  // The questions the Spark could not answer: a header button (open ones counted) and a side panel.
  const [unansweredOpen, setUnansweredOpen] = useState(false);
  const unansweredId = useId();
  const unansweredButton = useRef<HTMLButtonElement>(null);
  const { data: unanswered } = useUnanswered(spark ? sparkId : '');
  const openQuestions = unanswered?.filter((g) => g.status === 'open').length ?? 0;
  // The chat's "Review the checks" (after the knowledge changed) comes with ?review=checks: the panel opens on them;
  // Back from a source's document page, with ?review=list: it opens on the list. The parameter leaves the address.
  // A run of the answer checks that found a change posts it in the chat: read it again when one shows (polled).
  const { data: checks } = useChecks(spark ? sparkId : '');
  const lastCheckChange =
    checks
      ?.filter((c) => c.status === 'changed' && c.checkedAt)
      .map((c) => c.checkedAt ?? '')
      .sort()
      .at(-1) ?? null;
  const review = params.get('review');
  const { mutate } = useSWRConfig();
  const [reviewFocus, setReviewFocus] = useState<'checks' | undefined>(undefined);
  useEffect(() => {
    if (review === null) return;
    setReviewFocus(review === 'checks' ? 'checks' : undefined);
    setUnansweredOpen(true);
    // What the chat just told is read again, not the list as it was.
    void mutate(checksKey(sparkId));
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('review');
        return next;
      },
      { replace: true },
    );
  }, [review, setParams, mutate, sparkId]);

  useEffect(() => {
    setActiveSparkId(sparkId);
    setChatMode('Normal');
  }, [sparkId]);

  function close() {
    setChatMode('Normal');
    clearActiveSparkId();
    void navigate('/');
  }

  if (notFound) return <SparkNotFound sparkId={sparkId} />;

  if (error && !spark) {
    return (
      <section className="chat-page">
        <p className="chat-page__note" role="alert">
          {t('page.invalid')}
        </p>
      </section>
    );
  }

  return (
    <ChatPageFrame
      title={
        spark ? (
          <EditableTitle key={spark._id} value={spark.name} onSave={(name) => rename(spark._id, name)} />
        ) : (
          <h1 className="chat-page__heading chat-page__heading--loading">{t('page.loading')}</h1>
        )
      }
      tag={
        spark && (
          <span
            className={mode === 'Test' ? 'spark-tag spark-tag--test' : 'spark-tag'}
            title={t('page.tag')}
            data-testid="spark-tag"
          >
            {mode === 'Test' ? t('page.test') : spark.type}
          </span>
        )
      }
      actions={
        <>
          {spark && (
            <button
              ref={unansweredButton}
              type="button"
              className={unansweredOpen ? 'chip-button chip-button--pressed' : 'chip-button'}
              aria-expanded={unansweredOpen}
              aria-controls={unansweredId}
              onClick={() => setUnansweredOpen((value) => !value)}
            >
              <QuestionIcon size={18} />
              <span>{t('unanswered.button')}</span>
              {openQuestions > 0 && <span className="chip-button__count">{openQuestions}</span>}
            </button>
          )}
          {spark && (
            <Link className="chip-button" to={`/spark/${encodeURIComponent(sparkId)}/analytics`}>
              <ChartIcon size={18} />
              <span>{t('nav.analytics', { ns: 'common' })}</span>
            </Link>
          )}
          <button
            type="button"
            className="icon-button"
            aria-label={t('layout:chat.closeSpark')}
            title={t('layout:chat.closeSpark')}
            onClick={close}
          >
            <CloseIcon />
          </button>
        </>
      }
      objectivesKey={sparkId}
      objectivesTitle={spark?.name ?? ''}
      stackOnPhone
      sidePanel={
        spark && (
          <UnansweredPanel
            id={unansweredId}
            sparkId={sparkId}
            sparkName={spark.name}
            open={unansweredOpen}
            focus={reviewFocus}
            transcriptConversation={TranscriptMessages}
            onClose={() => {
              setUnansweredOpen(false);
              setReviewFocus(undefined);
              unansweredButton.current?.focus();
            }}
          />
        )
      }
    >
      <ChatPanel
        key={`${sparkId}:${reloads}`}
        target={{ kind: 'builder', sparkId }}
        autoStart
        initialText={request ? t('chat:sharing.request') : undefined}
        onMessages={afterReply}
        refreshOn={lastCheckChange}
        className="chat-page__panel"
      />
    </ChatPageFrame>
  );
}
