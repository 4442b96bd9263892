import { useTranslation } from 'react-i18next';

export interface ChecklistItem {
  id: string;
  label: string;
  met: boolean;
}

/** A list of rules, each ticked once met; screen readers hear "done" or "missing" after each. */
export function Checklist({ title, items, id }: { title: string; items: ChecklistItem[]; id?: string }) {
  const { t } = useTranslation('auth');
  return (
    <div className="checklist" id={id}>
      <p className="checklist__title">{title}</p>
      <ul className="checklist__list">
        {items.map((item) => (
          <li
            key={item.id}
            className={item.met ? 'checklist__item checklist__item--met' : 'checklist__item'}
            data-met={item.met}
          >
            <svg className="checklist__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
              {item.met ? (
                <>
                  <circle cx="8" cy="8" r="7.5" fill="currentColor" />
                  <path
                    d="M4.8 8.2 7 10.4l4.2-4.6"
                    fill="none"
                    stroke="#fff"
                    strokeWidth="1.8"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </>
              ) : (
                <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
              )}
            </svg>
            <span>{item.label}</span>
            <span className="visually-hidden"> ({item.met ? t('checklist.met') : t('checklist.unmet')})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
