import { PERIODS, type Period } from '../figures';
import type { AnalyticsT } from '../i18n';

/** 7, 30 or 90 days: toggle buttons, the chosen one pressed. */
export function PeriodChooser({ value, onChange, t }: { value: Period; onChange: (p: Period) => void; t: AnalyticsT }) {
  return (
    <div className="analytics-period" role="group" aria-label={t('period.label')}>
      {PERIODS.map((days) => (
        <button
          key={days}
          type="button"
          className={
            days === value ? 'analytics-period__option analytics-period__option--on' : 'analytics-period__option'
          }
          aria-pressed={days === value}
          onClick={() => onChange(days)}
        >
          {t('period.days', { count: days })}
        </button>
      ))}
    </div>
  );
}
