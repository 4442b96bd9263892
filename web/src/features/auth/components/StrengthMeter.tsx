import { hasNoSpaces, passwordCriteria, passwordStrength } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import { Checklist } from './Checklist';

const SEGMENTS = [1, 2, 3, 4, 5];

/**
 * The reset strength meter of docs/product.md §5: Not Strong (1–2 criteria), Normal (3), Strong (4), Very Strong (5),
 * with the criteria checklist (length 8–100, digit, lowercase, uppercase, special character) and the reset's other rule, no
 * spaces (which does not count towards the strength).
 */
export function StrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation('auth');
  const { met, strength } = passwordStrength(password);
  const criteria = passwordCriteria(password);
  return (
    <div className="strength" data-strength={strength ?? 'none'}>
      <div className="strength__bar" aria-hidden="true">
        {SEGMENTS.map((segment) => (
          <span
            key={segment}
            className={segment <= met ? 'strength__segment strength__segment--on' : 'strength__segment'}
          />
        ))}
      </div>
      <p className="strength__label" aria-live="polite" data-testid="strength-label">
        {t('reset.strength.label')}: <strong>{t(`reset.strength.${strength ?? 'none'}`)}</strong>
      </p>
      <Checklist
        title={t('reset.criteriaTitle')}
        items={[
          { id: 'length', label: t('reset.criteria.length'), met: criteria.length },
          { id: 'digit', label: t('reset.criteria.digit'), met: criteria.digit },
          { id: 'lower', label: t('reset.criteria.lower'), met: criteria.lower },
          { id: 'upper', label: t('reset.criteria.upper'), met: criteria.upper },
          { id: 'special', label: t('reset.criteria.special'), met: criteria.special },
          // A rule of the reset password, not a strength criterion: listed so that a password the meter calls very
          // strong is not refused for a reason the list never showed.
          { id: 'noSpaces', label: t('reset.criteria.noSpaces'), met: password.length > 0 && hasNoSpaces(password) },
        ]}
      />
    </div>
  );
}
