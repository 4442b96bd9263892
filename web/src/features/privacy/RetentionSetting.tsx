import type { DeploymentView } from '@sparks/contracts';
import { VISITOR_RETENTION_MAX_DAYS, VISITOR_RETENTION_MIN_DAYS } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import { api } from '../../api/client';
import { NumberSetting } from '../../ui/NumberSetting';
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
  return (
    <NumberSetting
      sparkId={sparkId}
      testId="deploy-retention"
      texts={{
        title: t('retention.title'),
        hint: t('retention.hint'),
        label: t('retention.label'),
        save: t('retention.save'),
        range: t('retention.range', { min: 1, max: VISITOR_RETENTION_MAX_DAYS }),
      }}
      min={VISITOR_RETENTION_MIN_DAYS}
      max={VISITOR_RETENTION_MAX_DAYS}
      current={view?.visitorRetentionDays}
      save={(days) => api.put<DeploymentView>(`/sparks/${encodeURIComponent(sparkId)}/deployment/retention`, { days })}
      saved={(next) => t('retention.saved', { days: next.visitorRetentionDays })}
      onSaved={onSaved}
    />
  );
}
