import type { SparkView } from '@sparks/contracts';
import { MAX_PINNED_SPARKS } from '@sparks/contracts/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, NavLink, useLocation } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { DropdownMenu } from '../../../ui/DropdownMenu';
import { DotsIcon, FlaskIcon, PinIcon, TrashIcon } from '../../../ui/icons';
import { useTests } from '../hooks';

/** The server's answer to a fifth pin (docs/decisions.md: at most 4 pinned Sparks). */
const PIN_LIMIT = 'PIN_LIMIT';

export interface SparkRowProps {
  spark: SparkView;
  /** The active Spark shows a test row underneath when it has tests. */
  active: boolean;
  onTogglePin: (spark: SparkView) => Promise<unknown>;
  onDelete: (spark: SparkView) => void;
  /** Called when the row's menu opens (to preload the delete dialog). */
  onMenuOpen?: () => void;
}

/** The test open in the address (`/spark/{id}/test/{testId}` or `/mobile-test/{id}/{testId}`), if it is one of this Spark's. */
function useOpenTestId(sparkId: string): string | null {
  const { pathname } = useLocation();
  const match =
    matchPath('/spark/:sparkId/test/:testId', pathname) ?? matchPath('/mobile-test/:sparkId/:testId', pathname);
  return match?.params.sparkId === sparkId ? (match.params.testId ?? null) : null;
}

/**
 * The active Spark's tests: one row naming and linking to the test that is open, or to the first test (the tab
 * bar's first tab) when none of them is open (docs/decisions.md, 2026-11-28).
 */
function TestRow({ sparkId }: { sparkId: string }) {
  const { t } = useTranslation('sparks');
  const { data: tests } = useTests(sparkId);
  const openId = useOpenTestId(sparkId);
  const shown = tests?.find((test) => test._id === openId) ?? tests?.[0];
  if (!tests || !shown) return null;
  return (
    <NavLink
      to={`/spark/${encodeURIComponent(sparkId)}/test/${encodeURIComponent(shown._id)}`}
      className={({ isActive }) => (isActive ? 'spark-test-row spark-test-row--active' : 'spark-test-row')}
    >
      <FlaskIcon size={16} />
      <span className="spark-test-row__name">{t('row.tests', { count: tests.length, name: shown.name })}</span>
    </NavLink>
  );
}

/** A Spark in the sidebar: a link to /spark/{id} and a dropdown to pin or unpin and to delete. */
export function SparkRow({ spark, active, onTogglePin, onDelete, onMenuOpen }: SparkRowProps) {
  const { t } = useTranslation('sparks');
  const [failed, setFailed] = useState<'limit' | 'other' | null>(null);
  return (
    <li className={active ? 'spark-row spark-row--active' : 'spark-row'} data-spark-id={spark._id}>
      <div className="spark-row__main">
        <NavLink
          to={`/spark/${encodeURIComponent(spark._id)}`}
          end
          className={({ isActive }) => (isActive ? 'spark-row__link spark-row__link--current' : 'spark-row__link')}
          title={spark.name}
        >
          {spark.pin && <PinIcon size={14} className="spark-row__pin" />}
          <span className="spark-row__name">{spark.name}</span>
        </NavLink>
        <DropdownMenu
          label={t('row.actions', { name: spark.name })}
          button={<DotsIcon size={18} />}
          buttonClassName="icon-button spark-row__menu"
          anchor="bottom end"
          onOpen={onMenuOpen}
          entries={[
            {
              key: 'pin',
              label: spark.pin ? t('row.unpin') : t('row.pin'),
              icon: <PinIcon />,
              onSelect: () => {
                setFailed(null);
                onTogglePin(spark).catch((error: unknown) =>
                  setFailed(isApiError(error) && error.hasCode(PIN_LIMIT) ? 'limit' : 'other'),
                );
              },
            },
            {
              key: 'delete',
              label: t('row.delete'),
              icon: <TrashIcon />,
              tone: 'danger',
              onSelect: () => onDelete(spark),
            },
          ]}
        />
      </div>
      {failed && (
        <p className="spark-row__error" role="alert">
          {failed === 'limit' ? t('row.pinLimit', { max: MAX_PINNED_SPARKS }) : t('row.pinFailed')}
        </p>
      )}
      {active && <TestRow sparkId={spark._id} />}
    </li>
  );
}
