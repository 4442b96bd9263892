import { PASSWORD_MIN } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import { registerHints } from '../validation';
import { Checklist } from './Checklist';

/** The register hint list of docs/product.md §5: required, minimum 8, upper and lower case, a special character. */
export function PasswordHints({ password }: { password: string }) {
  const { t } = useTranslation('auth');
  const met = registerHints(password);
  return (
    <Checklist
      title={t('register.hintsTitle')}
      items={[
        { id: 'required', label: t('register.hints.required'), met: met.required },
        { id: 'min', label: t('register.hints.min', { min: PASSWORD_MIN }), met: met.min },
        { id: 'case', label: t('register.hints.case'), met: met.case },
        { id: 'special', label: t('register.hints.special'), met: met.special },
      ]}
    />
  );
}
