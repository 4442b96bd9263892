import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useSWRConfig } from 'swr';

import { useNavigate } from '../../../lib/router';
import { useQueryFlags } from '../../../lib/useQueryFlags';
import { CloseIcon, DeployIcon } from '../../../ui/icons';
import { useMediaQuery } from '../../../ui/useMediaQuery';
import { ChatPageFrame } from '../../chat/components/ChatPageFrame';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { DEPLOY_WELCOME_REFRESH_MS } from '../../chat/display';
import { useAfterReply } from '../../chat/hooks/useAfterReply';
import { DeployPanel } from '../components/DeployPanel';
import '../deploy.css';

/** Below this width the panel and the chat do not fit side by side (deploy.css uses the same width). */
const DEPLOY_NARROW_QUERY = '(max-width: 1099.98px)';

/** What the page keeps in its history entry once `?q=` is gone: the Spark the panel shows after a reload or Back. */
interface DeployNavState {
  deploySpark?: string;
}

const deploySparkOf = (state: unknown): string | undefined => {
  const name = (state as DeployNavState | null)?.deploySpark;
  return typeof name === 'string' && name ? name : undefined;
};

/**
 * /deploy: the working panel that publishes a Spark (choose it — `?q=` names it —, the channel, the
 * allowed sites, the live preview, publish, verify) beside the deploy assistant's chat, with the
 * deploy objectives on the side. The chat unpublishes or replaces the code too (with a confirmation),
 * and greets afresh when its last message is more than 24 h old (docs/product.md §4).
 *
 * Where the two do not fit side by side (phones, narrow windows) the chat comes first and the panel slides
 * over it from a header button, as the objectives panel does on a Spark's page.
 */
export default function DeployPage() {
  const { t } = useTranslation(['common', 'deploy']);
  const { q } = useQueryFlags();
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const narrow = useMediaQuery(DEPLOY_NARROW_QUERY);
  const [panelOpen, setPanelOpen] = useState(false);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const afterObjectives = useAfterReply('deploy');
  // The assistant may have unpublished a Spark or replaced its code: the panel reads the deployment again.
  const afterReply = useCallback(() => {
    afterObjectives();
    void mutate((key) => Array.isArray(key) && key[0] === 'deployment');
  }, [afterObjectives, mutate]);
  // The widget was first seen while the page is open: the assistant said so in its conversation, which the
  // chat reads again in place. Not a new mount: that dropped a reply being received and a choice being clicked.
  const [sightings, setSightings] = useState(0);
  const onFirstSeen = useCallback(() => setSightings((n) => n + 1), []);
  // `?q=` acts once (docs/decisions.md): the chat mount it was handed to sends it, then it leaves the address (history
  // replace) so that a reload or Back does not send it again; the history entry keeps the name for the panel only.
  // `key` is the navigation that carried it (a later /deploy?q=… on this page is a new request).
  const [request, setRequest] = useState(() => (q ? { name: q, key: location.key } : null));
  useEffect(() => {
    if (!q) return;
    if (request?.key !== location.key) setRequest({ name: q, key: location.key });
    const search = new URLSearchParams(location.search);
    search.delete('q');
    const rest = search.toString();
    const kept = typeof location.state === 'object' ? (location.state as Record<string, unknown> | null) : null;
    const state: DeployNavState = { ...kept, deploySpark: q };
    void navigate(
      { pathname: location.pathname, search: rest ? `?${rest}` : '', hash: location.hash },
      { replace: true, state },
    );
    // Only a new `?q=` matters; the rest is read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, location.key]);
  const panelSpark = request?.name ?? deploySparkOf(location.state);
  const overlay = narrow;
  const hidden = overlay && !panelOpen;

  // Opening moves the focus into the panel; closing gives it back to the header button.
  useEffect(() => {
    if (overlay && panelOpen) closeRef.current?.focus({ preventScroll: true });
  }, [overlay, panelOpen]);

  function closePanel() {
    setPanelOpen(false);
    toggleRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (overlay && panelOpen && event.key === 'Escape') {
      event.stopPropagation();
      closePanel();
    }
  }

  const title = t('pages.deploy.title');
  return (
    <ChatPageFrame
      title={<h1 className="chat-page__heading">{title}</h1>}
      objectivesKey="deploy"
      objectivesTitle={title}
      actions={
        overlay && (
          <button
            ref={toggleRef}
            type="button"
            className={
              panelOpen ? 'chip-button chip-button--labelled chip-button--pressed' : 'chip-button chip-button--labelled'
            }
            aria-expanded={panelOpen}
            aria-controls={panelId}
            data-testid="deploy-panel-toggle"
            onClick={() => setPanelOpen((value) => !value)}
          >
            <DeployIcon size={18} />
            <span>{t('deploy:page.openPanel')}</span>
          </button>
        )
      }
    >
      <div className={overlay ? 'deploy-page deploy-page--narrow' : 'deploy-page'}>
        <div
          id={panelId}
          className={['deploy-page__side', panelOpen && 'deploy-page__side--open'].filter(Boolean).join(' ')}
          inert={hidden}
          onKeyDown={onKeyDown}
        >
          {overlay && (
            <div className="deploy-page__side-header">
              <button
                ref={closeRef}
                type="button"
                className="icon-button"
                aria-label={t('deploy:page.closePanel')}
                title={t('deploy:page.closePanel')}
                onClick={closePanel}
              >
                <CloseIcon />
              </button>
            </div>
          )}
          <DeployPanel key={request?.key ?? ''} {...(panelSpark ? { q: panelSpark } : {})} onFirstSeen={onFirstSeen} />
        </div>
        <ChatPanel
          key={`deploy:${request?.key ?? ''}`}
          target={{ kind: 'system', name: 'deploy' }}
          autoStart
          freshAfterMs={DEPLOY_WELCOME_REFRESH_MS}
          {...(request ? { initialText: request.name } : {})}
          refreshOn={sightings > 0 ? String(sightings) : null}
          onMessages={afterReply}
          className="chat-page__panel"
        />
      </div>
    </ChatPageFrame>
  );
}
