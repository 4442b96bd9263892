import type { DeploymentView } from '@sparks/contracts';
import { VISITOR_RETENTION_MAX_DAYS, VISITOR_RETENTION_MIN_DAYS } from '@sparks/contracts/rules';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { api, isApiError } from '../../api/client';
import { serverMessage } from './AccountDataButton';
import './privacy.css';

interface RetentionSettingProps {
  sparkId: string;
  /** The Spark's deployment view, whose `visitorRetentionDays` this shows and changes. */
  view: DeploymentView | undefined;
  onSaved: (view: DeploymentView) => void;
}

/**
 * On /deploy: how many days the Spark's website visitors' conversations are kept after their last message
 * (PUT …/deployment/retention, 1–730, 90 by default). The widget tells visitors this number before they write.
 */
export function RetentionSetting({ sparkId, view, onSaved }: RetentionSettingProps) {
  const { t } = useTranslation('privacy');
  const ids = { input: useId(), message: useId() };
  const current = view?.visitorRetentionDays;
  const [days, setDays] = useState(current === undefined ? '' : String(current));
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // Another Spark: its own number, and no message of the last one's.
  useEffect(() => setMessage(null), [sparkId]);
  useEffect(() => {
    if (current !== undefined) setDays(String(current));
  }, [sparkId, current]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const next = await api.put<DeploymentView>(`/sparks/${encodeURIComponent(sparkId)}/deployment/retention`, {
        days: Number(days),
      });
      onSaved(next);
      setMessage({ tone: 'ok', text: t('retention.saved', { days: next.visitorRetentionDays }) });
    } catch (error) {
      const text =
        serverMessage(error) ??
        (isApiError(error) ? error.message : t('retention.range', { min: 1, max: VISITOR_RETENTION_MAX_DAYS }));
      setMessage({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="deploy-panel__block" data-testid="deploy-retention">
      <h2>{t('retention.title')}</h2>
      <p className="deploy-panel__hint">{t('retention.hint')}</p>
      <form className="deploy-panel__row" onSubmit={(event) => void save(event)} noValidate>
        <label htmlFor={ids.input}>{t('retention.label')}</label>
        <input
          id={ids.input}
          type="number"
          inputMode="numeric"
          min={VISITOR_RETENTION_MIN_DAYS}
          max={VISITOR_RETENTION_MAX_DAYS}
          step={1}
          value={days}
          className="deploy-panel__days"
          aria-invalid={message?.tone === 'error' ? true : undefined}
          aria-describedby={message ? ids.message : undefined}
          onChange={(event) => {
            setDays(event.target.value);
            setMessage(null);
          }}
        />
        <button type="submit" disabled={busy || days === String(current)} aria-busy={busy || undefined}>
          {t('retention.save')}
        </button>
      </form>
      {message && (
        <p
          id={ids.message}
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'deploy-panel__error deploy-panel__field-error' : 'deploy-panel__hint'}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
