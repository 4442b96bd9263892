import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface PlaceholderPageProps {
  title: string;
  subtitle?: string;
  children?: ReactNode;
}

/** Minimal page body used by the route placeholders until the real screens land. */
export function PlaceholderPage({ title, subtitle, children }: PlaceholderPageProps) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      {subtitle && <p className="page__subtitle">{subtitle}</p>}
      {children}
      <p className="page__note">{t('placeholder.comingSoon')}</p>
    </section>
  );
}
