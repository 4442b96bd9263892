import type { DeploymentView } from '@sparks/contracts';
import { DEPLOYMENT_DAILY_LIMIT_MAX, DEPLOYMENT_DAILY_LIMIT_MIN } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import { api } from '../../../api/client';
import { NumberSetting } from '../../../ui/NumberSetting';

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
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  return (
    <NumberSetting
      sparkId={sparkId}
      testId="deploy-daily-limit"
      texts={{
        title: t('dailyLimit.title'),
        hint: t('dailyLimit.hint'),
        label: t('dailyLimit.label'),
        save: t('dailyLimit.save'),
        range: t('dailyLimit.range', {
          min: number(DEPLOYMENT_DAILY_LIMIT_MIN),
          max: number(DEPLOYMENT_DAILY_LIMIT_MAX),
        }),
      }}
      min={DEPLOYMENT_DAILY_LIMIT_MIN}
      max={DEPLOYMENT_DAILY_LIMIT_MAX}
      current={view?.dailyLimit}
      save={(dailyLimit) =>
        api.patch<DeploymentView>(`/sparks/${encodeURIComponent(sparkId)}/deployment`, { dailyLimit })
      }
      saved={(next) => t('dailyLimit.saved', { count: next.dailyLimit })}
      onSaved={onSaved}
    >
      {view && (
        <p className="deploy-panel__hint" data-testid="deploy-daily-used">
          {t('dailyLimit.used', { used: number(view.usedToday), limit: number(view.dailyLimit) })}
        </p>
      )}
    </NumberSetting>
  );
}
