import type { DeploymentView } from '@sparks/contracts';
import { DEPLOYMENT_DAILY_LIMIT_MAX, DEPLOYMENT_DAILY_LIMIT_MIN } from '@sparks/contracts/rules';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { api, isApiError } from '../../../api/client';
import { serverMessage } from '../../privacy/AccountDataButton';

interface DailyLimitSettingProps {
  sparkId: string;
  /** The Spark's deployment view, whose `dailyLimit` (and `usedToday`) this shows and changes. */
  view: DeploymentView | undefined;
  onSaved: (view: DeploymentView) => void;
}

/**
 * On /deploy: how many visitor messages the Spark's widget answers a day (PATCH …/deployment { dailyLimit },
 * 1–10,000, 200 by default; issue 30), and how many were taken today. Past it visitors get the widget's polite
 * message and e-mail form until midnight UTC.
 */
export function DailyLimitSetting({ sparkId, view, onSaved }: DailyLimitSettingProps) {
  const { t, i18n } = useTranslation('deploy');
  const ids = { input: useId(), message: useId() };
  const current = view?.dailyLimit;
  const [value, setValue] = useState(current === undefined ? '' : String(current));
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);

  useEffect(() => setMessage(null), [sparkId]);
  useEffect(() => {
    if (current !== undefined) setValue(String(current));
  }, [sparkId, current]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const next = await api.patch<DeploymentView>(`/sparks/${encodeURIComponent(sparkId)}/deployment`, {
        dailyLimit: Number(value),
      });
      onSaved(next);
      setMessage({ tone: 'ok', text: t('dailyLimit.saved', { count: next.dailyLimit }) });
    } catch (error) {
      const range = t('dailyLimit.range', {
        min: number(DEPLOYMENT_DAILY_LIMIT_MIN),
        max: number(DEPLOYMENT_DAILY_LIMIT_MAX),
      });
      setMessage({ tone: 'error', text: serverMessage(error) ?? (isApiError(error) ? error.message : range) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="deploy-panel__block" data-testid="deploy-daily-limit">
      <h2>{t('dailyLimit.title')}</h2>
      <p className="deploy-panel__hint">{t('dailyLimit.hint')}</p>
      <form className="deploy-panel__row" onSubmit={(event) => void save(event)} noValidate>
        <label htmlFor={ids.input}>{t('dailyLimit.label')}</label>
        <input
          id={ids.input}
          type="number"
          inputMode="numeric"
          min={DEPLOYMENT_DAILY_LIMIT_MIN}
          max={DEPLOYMENT_DAILY_LIMIT_MAX}
          step={1}
          value={value}
          className="deploy-panel__days"
          aria-invalid={message?.tone === 'error' ? true : undefined}
          aria-describedby={message ? ids.message : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setMessage(null);
          }}
        />
        <button type="submit" disabled={busy || value === String(current)} aria-busy={busy || undefined}>
          {t('dailyLimit.save')}
        </button>
      </form>
      {view && (
        <p className="deploy-panel__hint" data-testid="deploy-daily-used">
          {t('dailyLimit.used', { used: number(view.usedToday), limit: number(view.dailyLimit) })}
        </p>
      )}
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
