import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { useNavigate } from '../../../lib/router';
import { MOBILE_QUERY, useMediaQuery } from '../../../ui/useMediaQuery';
import { greetingName } from '../../account/profile';
import { useProfile } from '../../account/useProfile';
import '../onboarding.css';

/**
 * `/onBoarding` (where a new account lands after confirming its e-mail, docs/product.md §4): what Sparks does and the start of
 * the guided tour. Starting it opens the main chat with `activateTutorial` (plus `startMobileTutorial` on a phone),
 * where the tour runs over the real layout; skipping goes to the main chat.
 */
export default function OnboardingPage() {
  const { t } = useTranslation('onboarding');
  const navigate = useNavigate();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const { data: profile } = useProfile();
  const name = greetingName(profile);

  return (
    <section className="onboarding-intro" aria-labelledby="onboarding-title">
      <h1 id="onboarding-title" className="page__title">
        {name ? t('intro.title', { name }) : t('intro.titleNoName')}
      </h1>
      <p className="onboarding-intro__lead">{t('intro.lead')}</p>
      <ol className="onboarding-intro__points">
        <li>{t('intro.points.build')}</li>
        <li>{t('intro.points.test')}</li>
        <li>{t('intro.points.deploy')}</li>
      </ol>
      <div className="onboarding-intro__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() =>
            void navigate(mobile ? '/?activateTutorial=true&startMobileTutorial=true' : '/?activateTutorial=true')
          }
        >
          {t('intro.start')}
        </button>
        <Link to="/" className="button">
          {t('intro.skip')}
        </Link>
      </div>
    </section>
  );
}
