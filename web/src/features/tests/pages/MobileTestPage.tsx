import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';

import { useNavigate } from '../../../lib/router';
import { ChevronLeftIcon } from '../../../ui/icons';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { setActiveSparkId } from '../../sparks/activeSpark';
import { SparkNotFound } from '../../sparks/components/SparkNotFound';
import { useSpark, useTests } from '../../sparks/hooks';
import { isSparkMissing } from '../../sparks/missing';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { useLingering } from '../hooks/useLingering';
import { useTestsT } from '../i18n';
import { mobileTestPath, sparkPath, testPath } from '../rules';
import '../tests.css';

/**
 * /mobile-test/{sparkId}/{testId}: the test's chat as a visitor would see it on a phone — a 390×760 frame
 * centred on large screens, the whole screen below 500 px — with the test name and a link back to the test.
 */
export default function MobileTestPage() {
  const t = useTestsT();
  const { sparkId = '', testId = '' } = useParams();
  const navigate = useNavigate();
  const { data: spark, error: sparkError } = useSpark(sparkId);
  const { data: tests, error: testsError, mutate: reloadTests } = useTests(sparkId);
  const loading = (!spark && !sparkError) || (!tests && !testsError);
  const overlay = useLingering(loading);
  const notFound = isSparkMissing(sparkError) || isSparkMissing(testsError);
  const current = tests?.find((test) => test._id === testId) ?? null;

  useEffect(() => {
    if (sparkId) setActiveSparkId(sparkId);
  }, [sparkId]);

  // A test that is not there: the first test in the same frame, or back to the Spark.
  // The cached list may be older than the test: only the server's fresh answer decides.
  useEffect(() => {
    if (!tests || current) return;
    let cancelled = false;
    void reloadTests()
      .then((fresh) => {
        if (cancelled || !fresh || fresh.some((test) => test._id === testId)) return;
        void navigate(fresh.length > 0 ? mobileTestPath(sparkId, fresh[0]._id) : sparkPath(sparkId), {
          replace: true,
        });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [tests, current, testId, sparkId, navigate, reloadTests]);

  const failed = !loading && !notFound && (!spark || !tests);

  if (notFound) return <SparkNotFound sparkId={sparkId} />;

  return (
    <section className="mobile-test">
      <div className="mobile-test__frame" aria-label={t('mobile.frame')} role="region">
        <header className="mobile-test__header">
          <Link
            to={testPath(sparkId, testId)}
            className="icon-button mobile-test__back"
            aria-label={t('mobile.back')}
            title={t('mobile.back')}
          >
            <ChevronLeftIcon />
          </Link>
          <div className="mobile-test__titles">
            <h1 className="mobile-test__name" title={current?.name}>
              {current?.name ?? t('page.loading')}
            </h1>
            {spark && <p className="mobile-test__spark">{spark.name}</p>}
          </div>
          <span className="spark-tag spark-tag--test" title={t('page.tagTitle')}>
            {t('page.tag')}
          </span>
        </header>
        {failed && (
          <p className="chat-page__note" role="alert">
            {t('page.invalid')}
          </p>
        )}
        {current && (
          <ChatPanel key={testId} target={{ kind: 'test', sparkId, testId }} autoStart className="mobile-test__chat" />
        )}
        <LoadingOverlay phase={overlay} />
      </div>
    </section>
  );
}
