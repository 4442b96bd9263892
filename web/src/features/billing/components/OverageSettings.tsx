import type { OverageView } from '@sparks/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { isApiError } from '../../../api/client';
import { Dialog } from '../../../ui/Dialog';
import { fetchOverage, OVERAGE_KEY, saveOverage } from '../api';
import { capToCents, centsToCapText, currencySymbol, formatCount, formatPrice } from '../billing';

/**
 * Overage on /billing (spec: the order of spending; docs/decisions.md, "Overage on the billing page"): for a paid plan
 * with a premium rate, a button showing whether it is on (and its cap) that opens a dialog to turn it on or off and
 * set the monthly cap, with the rate and this period's overage. The free plan has no overage: nothing is shown.
 */
export function OverageSettings() {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const { data, mutate } = useSWR<OverageView, Error>(OVERAGE_KEY, fetchOverage);
  const [open, setOpen] = useState(false);
  if (!data?.available) return null;
  const status = data.enabled
    ? t('overage.statusOn', { cap: formatPrice(data.capCents, data.currency, locale) })
    : t('overage.statusOff');
  return (
    <>
      <button
        type="button"
        className="button button--secondary button--small overage-open"
        data-testid="overage-open"
        onClick={() => {
          void mutate();
          setOpen(true);
        }}
      >
        <span>{t('overage.button')}</span>
        <span className={`overage-open__status${data.enabled ? ' overage-open__status--on' : ''}`}>{status}</span>
      </button>
      {open && (
        <OverageDialog
          view={data}
          onClose={() => setOpen(false)}
          onSaved={(saved) => {
            void mutate(saved, { revalidate: false });
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

interface OverageDialogProps {
  view: OverageView;
  onClose: () => void;
  onSaved: (view: OverageView) => void;
}

/** The overage form: on/off, the monthly cap in the plan's currency, and the server's answer when it refuses. */
function OverageDialog({ view, onClose, onSaved }: OverageDialogProps) {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const ids = useId();
  const [enabled, setEnabled] = useState(view.enabled);
  const [capText, setCapText] = useState(() => centsToCapText(view.capCents, locale));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const money = (cents: number) => formatPrice(cents, view.currency, locale);
  const rate = money(view.unitAmount);
  const typed = capToCents(capText);
  const covers = typed !== null && typed >= view.unitAmount ? Math.floor(typed / view.unitAmount) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Off keeps the cap the owner had; on needs an amount (its range is the server's to check).
    const capCents = typed ?? (enabled ? null : view.capCents);
    if (capCents === null) {
      setError(t('overage.capInvalid'));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onSaved(await saveOverage(enabled, capCents));
    } catch (cause) {
      setError(isApiError(cause) && cause.message ? cause.message : t('overage.failed'));
      setSaving(false);
    }
  };

  const capId = `${ids}-cap`;
  const hintId = `${ids}-hint`;
  const errorId = `${ids}-error`;
  return (
    <Dialog
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={t('overage.title')}
      description={t('overage.lead', { rate })}
    >
      <form className="overage" onSubmit={(event) => void submit(event)} noValidate>
        <label className="overage__toggle">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            disabled={saving}
            onChange={(event) => {
              setEnabled(event.target.checked);
              setError(null);
            }}
          />
          <span>{t('overage.toggle', { rate })}</span>
        </label>
        <div className="overage__field">
          <label htmlFor={capId}>{t('overage.cap', { symbol: currencySymbol(view.currency, locale) })}</label>
          <input
            id={capId}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={capText}
            disabled={!enabled || saving}
            aria-invalid={error ? true : undefined}
            aria-describedby={
              [error ? errorId : null, covers !== null ? hintId : null].filter(Boolean).join(' ') || undefined
            }
            onChange={(event) => {
              setCapText(event.target.value);
              setError(null);
            }}
          />
          {covers !== null && (
            <p id={hintId} className="overage__hint">
              {t('overage.capHint', { count: covers, n: formatCount(covers, locale) })}
            </p>
          )}
        </div>
        <p className="overage__spent" data-testid="overage-spent">
          {t('overage.spent', {
            count: view.usedInteractions,
            n: formatCount(view.usedInteractions, locale),
            spent: money(view.spentCents),
            date: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(view.periodEnd)),
          })}
        </p>
        {error && (
          <p id={errorId} className="overage__error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" disabled={saving} onClick={onClose}>
            {t('overage.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving || undefined}>
            {saving && <span className="spinner spinner--button" aria-hidden="true" />}
            {t('overage.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
