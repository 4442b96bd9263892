import { useTranslation } from 'react-i18next';

import { RING_BOX, RING_CIRCUMFERENCE, RING_RADIUS, RING_STROKE, ringDasharray, toPercent } from './ring';

/** The objectives' circular progress (radius 98) with the percentage in the centre. */
export function ProgressRing({ progress, size = 168 }: { progress: number; size?: number }) {
  const { t } = useTranslation('objectives');
  const percent = toPercent(progress);
  const centre = RING_BOX / 2;
  return (
    <div
      className="progress-ring"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={t('progress', { percent })}
      style={{ width: size, height: size }}
    >
      <svg viewBox={`0 0 ${RING_BOX} ${RING_BOX}`} width={size} height={size} aria-hidden="true" focusable="false">
        <circle className="progress-ring__track" cx={centre} cy={centre} r={RING_RADIUS} strokeWidth={RING_STROKE} />
        <circle
          className="progress-ring__bar"
          cx={centre}
          cy={centre}
          r={RING_RADIUS}
          strokeWidth={RING_STROKE}
          strokeDasharray={ringDasharray(percent)}
          strokeDashoffset={0}
          transform={`rotate(-90 ${centre} ${centre})`}
          data-circumference={RING_CIRCUMFERENCE.toFixed(2)}
        />
      </svg>
      <span className="progress-ring__label" aria-hidden="true">
        <span className="progress-ring__percent" data-testid="objectives-percent">
          {percent}%
        </span>
        <span className="progress-ring__caption">{t('complete')}</span>
      </span>
    </div>
  );
}
