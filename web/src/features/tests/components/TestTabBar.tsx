import type { SparkTestView } from '@sparks/contracts';
import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router-dom';

import { FlaskIcon, PlusIcon, TrashIcon } from '../../../ui/icons';
import { useTestsT } from '../i18n';
import { tabName, testPath } from '../rules';

export interface TestTabBarProps {
  sparkId: string;
  tests: readonly SparkTestView[];
  activeId: string;
  /** The '+' tab; the page decides whether a test can be added (docs/product.md §5). */
  onAdd: () => void;
  adding?: boolean;
  onDelete: (test: SparkTestView) => void;
}

/**
 * docs/product.md §2 test tab bar: one tab per test (a link to it, the active one highlighted, the name cut to 8
 * characters and '…' when longer than 10, the full name as tooltip), each with a delete icon, and a final '+'. Where
 * the tabs do not fit (a phone), the bar scrolls, and the open test's tab is scrolled into it.
 */
export function TestTabBar({ sparkId, tests, activeId, onAdd, adding = false, onDelete }: TestTabBarProps) {
  const t = useTestsT();
  const activeRef = useRef<HTMLLIElement>(null);
  // A fourth or fifth test opened on a phone was a tab outside the bar: bring it in (no scroll when it is in view).
  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeId, tests.length]);
  return (
    <nav className="test-tabs" aria-label={t('tabs.label')}>
      <ul className="test-tabs__list">
        {tests.map((test) => {
          const active = test._id === activeId;
          return (
            <li
              key={test._id}
              ref={active ? activeRef : undefined}
              className={active ? 'test-tab test-tab--active' : 'test-tab'}
              data-test-id={test._id}
            >
              <NavLink
                to={testPath(sparkId, test._id)}
                className="test-tab__link"
                title={test.name}
                aria-current={active ? 'page' : undefined}
              >
                <FlaskIcon size={16} />
                <span className="test-tab__name">{tabName(test.name)}</span>
              </NavLink>
              <button
                type="button"
                className="test-tab__delete"
                aria-label={t('tabs.delete', { name: test.name })}
                title={t('tabs.delete', { name: test.name })}
                onClick={() => onDelete(test)}
              >
                <TrashIcon size={15} />
              </button>
            </li>
          );
        })}
        <li className="test-tab test-tab--add">
          <button
            type="button"
            className="test-tab__add"
            aria-label={adding ? t('tabs.adding') : t('tabs.add')}
            title={t('tabs.add')}
            aria-busy={adding || undefined}
            disabled={adding}
            onClick={onAdd}
          >
            {adding ? <span className="spinner spinner--button" aria-hidden="true" /> : <PlusIcon size={18} />}
          </button>
        </li>
      </ul>
    </nav>
  );
}
