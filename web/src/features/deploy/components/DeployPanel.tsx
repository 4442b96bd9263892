import type { DeployChannel, DeploymentView } from '@sparks/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';

import { isApiError } from '../../../api/client';
import { copyText } from '../../../lib/copy';
import { useOpenPlans } from '../../account/useOpenPlans';
import { isObjectivesKey } from '../../objectives/api';
import { fetchSparks } from '../../sparks/api';
import * as deployApi from '../api';
import { RetentionSetting } from '../../privacy/RetentionSetting';
import { DailyLimitSetting } from './DailyLimitSetting';
import { VisitorConversations } from './VisitorConversations';
import { LivePreview } from './WidgetPreview';

/** The Spark named by `?q=` (its name, any case), else the first. */
function pickSpark(sparks: Array<{ _id: string; name: string }>, q: string | undefined): string | undefined {
  const wanted = q?.trim().toLowerCase();
  return (wanted && sparks.find((s) => s.name.trim().toLowerCase() === wanted)?._id) || sparks[0]?._id;
}

/**
 * The deploy page's working panel: choose the Spark and the channel, list the allowed sites, see
 * the live preview, publish (snippet and copy), verify (first seen), unpublish or replace the code,
 * a WordPress site key, and the visitors' conversations (read-only). Each step done is marked in
 * the deploy objectives (PATCH /objectives/deploy). `onFirstSeen`: the Spark on show was just seen for
 * the first time while the page was open (the deploy assistant has written it in its conversation).
 */
export function DeployPanel({ q, onFirstSeen }: { q?: string; onFirstSeen?: () => void }) {
  const { t, i18n } = useTranslation('deploy');
  const { mutate } = useSWRConfig();
  const ids = { spark: useId(), site: useId(), siteError: useId() };
  const { data: page } = useSWR(['deploy-sparks'], () => fetchSparks(1, 100));
  const sparks = useMemo(() => page?.items ?? [], [page]);
  const [sparkId, setSparkId] = useState<string | undefined>();
  const [channel, setChannel] = useState<DeployChannel>('widget');
  const [site, setSite] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The error is the plan's limit (a 402): it offers the plans, as every limit does (docs/product.md §8). */
  const [upgrade, setUpgrade] = useState(false);
  /** The allowed-website field's own message: empty, or refused by the server. */
  const [siteError, setSiteError] = useState<string | null>(null);
  /** A change is on its way: a second click does not send it again. */
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  // The plans popup over this page, as the other limits open it.
  const viewPlans = useOpenPlans();
  /** What the copy button did: copied, or only selected the snippet (no clipboard on a plain-HTTP address). */
  const [copied, setCopied] = useState<'copied' | 'selected' | null>(null);
  const snippetRef = useRef<HTMLPreElement>(null);
  const [siteKey, setSiteKey] = useState<string | null>(null);
  /** Unpublishing and a new code are confirmed first (the assistant's chat asks too). */
  const [confirming, setConfirming] = useState<'rotate' | 'unpublish' | null>(null);

  useEffect(() => {
    if (!sparkId && sparks.length > 0) setSparkId(pickSpark(sparks, q));
  }, [sparks, q, sparkId]);

  const key = sparkId ? deployApi.deploymentKey(sparkId) : null;
  const { data: view, mutate: setView } = useSWR<DeploymentView>(key, () => deployApi.fetchDeployment(sparkId!), {
    // While published and not seen yet, look again: the first sighting shows by itself.
    refreshInterval: (v) => (v?.published && !v.firstSeenAt ? 5000 : 0),
  });
  // Not seen, then seen, for the same Spark while the page is open: the first sighting happened now.
  const seenBefore = useRef<{ sparkId: string; seen: boolean } | null>(null);
  useEffect(() => {
    if (!view) return;
    const before = seenBefore.current;
    const seen = !!view.firstSeenAt;
    seenBefore.current = { sparkId: view.sparkId, seen };
    if (seen && before?.sparkId === view.sparkId && !before.seen) onFirstSeen?.();
  }, [view, onFirstSeen]);
  const step = async (stepId: string) => {
    await deployApi.completeStep(stepId);
    void mutate((k) => isObjectivesKey(k, 'deploy'));
  };

  useEffect(() => {
    if (sparkId) void step('deploy.spark');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sparkId]);
  useEffect(() => {
    // A published Spark has its channel chosen, the preselected one too (it is only marked on a change otherwise).
    if (view?.channel) {
      setChannel(view.channel);
      void step('deploy.channel');
    }
    if (view?.firstSeenAt) void step('deploy.verify');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view?.channel, view?.firstSeenAt]);

  const run = async (work: () => Promise<DeploymentView | void>, stepId?: string, field?: 'site') => {
    if (busyRef.current) return false;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    setUpgrade(false);
    setSiteError(null);
    try {
      const next = await work();
      if (next) await setView(next, { revalidate: false });
      if (stepId) await step(stepId);
      return true;
    } catch (err) {
      const failed = t('panel.error', { message: err instanceof Error ? err.message : String(err) });
      // The field's mistakes are said next to it, in the server's words (already in the user's language).
      if (field === 'site') setSiteError(isApiError(err) && err.status === 400 ? err.message : failed);
      else {
        // A plan's limit (402) is said in the server's words, already in the user's language: "allows 0" is not
        // "unpublish one" (issue 31).
        const limit = isApiError(err) && err.status === 402;
        setError(limit ? err.message : failed);
        setUpgrade(limit);
      }
      return false;
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  if (page && sparks.length === 0) return <p className="deploy-panel__empty">{t('panel.noSparks')}</p>;

  return (
    <section className="deploy-panel" aria-label={t('panel.label')} data-testid="deploy-panel">
      <div className="deploy-panel__row">
        <label htmlFor={ids.spark}>{t('panel.spark')}</label>
        <select
          id={ids.spark}
          value={sparkId ?? ''}
          onChange={(e) => {
            setSparkId(e.target.value);
            setSiteKey(null);
            setConfirming(null);
            setSiteError(null);
          }}
        >
          {!sparkId && <option value="">{t('panel.chooseSpark')}</option>}
          {sparks.map((s) => (
            <option key={s._id} value={s._id}>
              {s.name}
            </option>
          ))}
        </select>
        <span className={`deploy-panel__status ${view?.published ? 'is-on' : ''}`}>
          {view?.published ? t('panel.published') : t('panel.notPublished')}
        </span>
      </div>

      <fieldset className="deploy-panel__channels">
        <legend>{t('panel.channel')}</legend>
        {(['widget', 'pulse'] as const).map((c) => (
          <label key={c}>
            <input
              type="radio"
              name="deploy-channel"
              value={c}
              checked={channel === c}
              onChange={() => {
                setChannel(c);
                void step('deploy.channel');
              }}
            />
            {t(`panel.channels.${c}`)}
          </label>
        ))}
      </fieldset>

      <div className="deploy-panel__block">
        <h2>{t('panel.sites')}</h2>
        <p className="deploy-panel__hint">{t('panel.sitesHint')}</p>
        <ul data-testid="deploy-origins">
          {view?.origins.length === 0 && <li className="deploy-panel__hint">{t('panel.noSites')}</li>}
          {view?.origins.map((o) => (
            <li key={o.origin}>
              <code>{o.origin}</code>
              <button
                type="button"
                className="deploy-panel__link"
                aria-label={t('panel.remove', { origin: o.origin })}
                onClick={() => void run(() => deployApi.removeOrigin(sparkId!, o.origin))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <form
          className="deploy-panel__row"
          onSubmit={(e) => {
            e.preventDefault();
            if (!sparkId) return;
            if (!site.trim()) {
              setSiteError(t('panel.siteRequired'));
              return;
            }
            void run(() => deployApi.addOrigin(sparkId, site), 'deploy.sites', 'site').then((ok) => ok && setSite(''));
          }}
        >
          <label htmlFor={ids.site} className="sr-only">
            {t('panel.site')}
          </label>
          <input
            id={ids.site}
            data-testid="deploy-origin-input"
            type="text"
            inputMode="url"
            placeholder={t('panel.sitePlaceholder')}
            value={site}
            aria-invalid={siteError ? true : undefined}
            aria-describedby={siteError ? ids.siteError : undefined}
            onChange={(e) => {
              setSite(e.target.value);
              setSiteError(null);
            }}
          />
          <button type="submit" data-testid="deploy-origin-add" disabled={!sparkId || busy}>
            {t('panel.add')}
          </button>
        </form>
        {siteError && (
          <p id={ids.siteError} role="alert" className="deploy-panel__error deploy-panel__field-error">
            {siteError}
          </p>
        )}
        {sparkId && view && view.refusedSites.length > 0 && (
          <div className="deploy-panel__refused" data-testid="deploy-refused">
            <p className="deploy-panel__hint">{t('panel.refusedHint')}</p>
            <ul>
              {view.refusedSites.map((r) => (
                <li key={r.origin}>
                  <span>
                    {t('panel.refused')} <code>{r.origin}</code>{' '}
                    <span className="deploy-panel__hint">
                      ({t('panel.refusedWhen', { date: new Date(r.lastTriedAt).toLocaleString(i18n.language) })})
                    </span>
                  </span>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={t('panel.allowSite', { origin: r.origin })}
                    onClick={() => void run(() => deployApi.addOrigin(sparkId, r.origin), 'deploy.sites')}
                  >
                    {t('panel.allow')}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>

      <div className="deploy-panel__block">
        <h2>{t('panel.preview')}</h2>
        <p className="deploy-panel__hint">{t('panel.previewHint')}</p>
        {sparkId && <LivePreview key={`${sparkId}:${i18n.language}`} sparkId={sparkId} />}
      </div>

      <div className="deploy-panel__block">
        {!view?.published ? (
          <button
            type="button"
            className="deploy-panel__primary"
            data-testid="deploy-publish"
            disabled={!sparkId || busy}
            aria-busy={busy || undefined}
            onClick={() => void run(() => deployApi.publish(sparkId!, channel), 'deploy.publish')}
          >
            {t('panel.publish')}
          </button>
        ) : (
          <>
            {view.snippet && (
              <>
                <p>{t('panel.snippet')}</p>
                <pre className="deploy-panel__snippet" data-testid="deploy-snippet" ref={snippetRef}>
                  {view.snippet}
                </pre>
                <button
                  type="button"
                  data-testid="deploy-copy"
                  onClick={() =>
                    void copyText(view.snippet!, snippetRef.current).then((outcome) => {
                      setCopied(outcome);
                      if (outcome === 'copied') setTimeout(() => setCopied(null), 2000);
                    })
                  }
                >
                  {copied === 'copied' ? t('panel.copied') : t('panel.copy')}
                </button>
                {copied === 'selected' && (
                  <p role="status" className="deploy-panel__hint">
                    {t('panel.copySelected')}
                  </p>
                )}
              </>
            )}
            <p role="status" data-testid="deploy-seen">
              {view.firstSeenAt
                ? t('panel.seen', {
                    origin: view.firstSeenOrigin,
                    date: new Date(view.firstSeenAt).toLocaleString(i18n.language),
                  })
                : t('panel.notSeen')}
            </p>
            {channel === 'pulse' && (
              <div>
                <p>
                  {t('panel.pulseSteps')}{' '}
                  <a href="/downloads/sparks-pulse.zip" download data-testid="deploy-pulse-download">
                    {t('panel.pulseDownload')}
                  </a>
                </p>
                <button
                  type="button"
                  onClick={() => void deployApi.newSiteKey(sparkId!).then((k) => setSiteKey(k.siteKey))}
                >
                  {t('panel.siteKey')}
                </button>
                {siteKey && (
                  <p>
                    {t('panel.siteKeyHint')} <code data-testid="deploy-site-key">{siteKey}</code>
                  </p>
                )}
              </div>
            )}
            {confirming ? (
              <div className="deploy-panel__confirm" role="group" aria-label={t(`panel.${confirming}`)}>
                <p>{t(confirming === 'rotate' ? 'panel.confirmRotate' : 'panel.confirmUnpublish')}</p>
                <div className="deploy-panel__row">
                  <button
                    type="button"
                    className="deploy-panel__danger"
                    data-testid="deploy-confirm"
                    onClick={() =>
                      void run(() =>
                        confirming === 'rotate' ? deployApi.rotate(sparkId!) : deployApi.unpublish(sparkId!),
                      ).then(() => setConfirming(null))
                    }
                  >
                    {t(confirming === 'rotate' ? 'panel.confirmRotateYes' : 'panel.confirmUnpublishYes')}
                  </button>
                  <button type="button" onClick={() => setConfirming(null)}>
                    {t('panel.cancel')}
                  </button>
                </div>
              </div>
            ) : (
              <div className="deploy-panel__row">
                <button type="button" onClick={() => setConfirming('rotate')} title={t('panel.rotateHint')}>
                  {t('panel.rotate')}
                </button>
                <button type="button" onClick={() => setConfirming('unpublish')}>
                  {t('panel.unpublish')}
                </button>
              </div>
            )}
          </>
        )}
        {error && (
          <p role="alert" className="deploy-panel__error">
            {error}
            {upgrade && (
              <>
                {' '}
                <button type="button" className="deploy-panel__upgrade" onClick={viewPlans}>
                  {t('panel.viewPlans')}
                </button>
              </>
            )}
          </p>
        )}
      </div>

      {sparkId && (
        <DailyLimitSetting
          sparkId={sparkId}
          view={view}
          onSaved={(next) => void setView(next, { revalidate: false })}
        />
      )}

      {sparkId && (
        <RetentionSetting sparkId={sparkId} view={view} onSaved={(next) => void setView(next, { revalidate: false })} />
      )}

      <VisitorConversations key={sparkId} sparkId={sparkId} />
    </section>
  );
}
