import type { SparkTestView } from '@sparks/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { useNavigate } from '../../../lib/router';
import { DropdownMenu } from '../../../ui/DropdownMenu';
import { CloseIcon, DotsIcon } from '../../../ui/icons';
import { ChatPageFrame } from '../../chat/components/ChatPageFrame';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { setActiveSparkId } from '../../sparks/activeSpark';
import { SparkNotFound } from '../../sparks/components/SparkNotFound';
import { useSpark, useTests } from '../../sparks/hooks';
import { isSparkMissing } from '../../sparks/missing';
import { reportTestError } from '../api';
import { DeleteTestDialog } from '../components/DeleteTestDialog';
import { FeedbackDialog } from '../components/FeedbackDialog';
import { LimitDialog } from '../components/LimitDialog';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { ReportErrorDialog } from '../components/ReportErrorDialog';
import { TestTabBar } from '../components/TestTabBar';
import { Toast } from '../components/Toast';
import { sendTestFeedback } from '../feedback';
import { useLingering } from '../hooks/useLingering';
import { useTestActions } from '../hooks/useTestActions';
import { useTestsT } from '../i18n';
import {
  canAddTest,
  defaultTestName,
  mobileTestPath,
  pathAfterDelete,
  redirectForMissingTest,
  sparkPath,
  TESTS_LIMIT_CODE,
  testPath,
} from '../rules';
import '../tests.css';

interface Notice {
  message: string;
  tone: 'success' | 'error';
}

/**
 * /spark/{sparkId}/test/{testId}: the test tab bar (one tab per test, '+' to add, a delete icon per tab), the
 * Spark's header with the TEST tag and "Finish test", a toolbar (restart, and "report an error" behind "…")
 * and the test's chat. A loading overlay covers it while the Spark and its tests load, and 0.8 s more.
 */
export default function SparkTestPage() {
  const t = useTestsT();
  const { sparkId = '', testId = '' } = useParams();
  const navigate = useNavigate();
  const { data: spark, error: sparkError } = useSpark(sparkId);
  const { data: tests, error: testsError, mutate: reloadTests } = useTests(sparkId);
  const actions = useTestActions(sparkId);

  const loading = (!spark && !sparkError) || (!tests && !testsError);
  const overlay = useLingering(loading);
  const notFound = isSparkMissing(sparkError) || isSparkMissing(testsError);
  const failed = !loading && !notFound && (!spark || !tests);
  const current = tests?.find((test) => test._id === testId) ?? null;

  const [chatVersion, setChatVersion] = useState(0);
  const [adding, setAdding] = useState(false);
  const [limitOpen, setLimitOpen] = useState(false);
  const [toDelete, setToDelete] = useState<SparkTestView | null>(null);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [finishFailed, setFinishFailed] = useState(false);
  const [reportOpen, setReportOpen] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  /** Tests being deleted while open: their page is being left, no "missing test" redirect for them. */
  const leaving = useRef(new Set<string>());

  useEffect(() => {
    if (sparkId) setActiveSparkId(sparkId);
  }, [sparkId]);

  // A test id that is not among the tests: the first test, or back to the Spark. The cached list may be older
  // than the test (one the builder has just made: "Open the test"), so the server is asked again first and only
  // its answer decides (issue 18 item 7: the page used to bounce back to the Spark).
  useEffect(() => {
    if (!tests || leaving.current.has(testId) || tests.some((test) => test._id === testId)) return;
    let cancelled = false;
    void reloadTests()
      .then((fresh) => {
        if (cancelled || !fresh || leaving.current.has(testId)) return;
        const to = redirectForMissingTest(fresh, testId, sparkId);
        if (to) void navigate(to, { replace: true });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [tests, testId, sparkId, navigate, reloadTests]);

  const dismissNotice = useCallback(() => setNotice(null), []);

  async function add() {
    if (!tests || adding) return;
    // docs/product.md §5: only while the Spark has 4 or fewer tests; the server is not asked otherwise.
    if (!canAddTest(tests.length)) {
      setLimitOpen(true);
      return;
    }
    setAdding(true);
    try {
      const name = defaultTestName(
        tests.map((test) => test.name),
        (n) => t('tabs.defaultName', { n }),
      );
      const created = await actions.add(name);
      void navigate(testPath(sparkId, created._id));
    } catch (error) {
      if (isApiError(error) && error.hasCode(TESTS_LIMIT_CODE)) {
        setLimitOpen(true);
        void actions.reload();
      } else {
        setNotice({ message: t('tabs.addFailed'), tone: 'error' });
      }
    } finally {
      setAdding(false);
    }
  }

  async function remove(test: SparkTestView) {
    const open = test._id === testId;
    const next = open ? pathAfterDelete(tests ?? [], test._id, sparkId) : null;
    if (open) leaving.current.add(test._id);
    try {
      await actions.remove(test._id, () => (next ? navigate(next, { replace: true }) : undefined));
    } catch (error) {
      leaving.current.delete(test._id);
      throw error;
    }
    setToDelete(null);
  }

  async function restart() {
    if (restarting) return;
    setRestarting(true);
    try {
      const restarted = await actions.restart(testId);
      // A new key remounts the chat, which loads the new conversation (the greeting is already there).
      if (restarted) setChatVersion((version) => version + 1);
    } catch {
      setNotice({ message: t('toolbar.restartFailed'), tone: 'error' });
    } finally {
      setRestarting(false);
    }
  }

  async function answer(satisfactory: boolean) {
    if (finishing) return;
    setFinishing(true);
    setFinishFailed(false);
    leaving.current.add(testId);
    try {
      // docs/product.md §4: either answer removes the test, then the Spark chat gets the verdict. The verdict goes
      // with the deletion too: the server keeps what was said as the test's transcript (issue 35 item 2).
      await actions.remove(
        testId,
        () => {
          void sendTestFeedback(sparkId, satisfactory, {
            navigate: (to, options) => navigate(to, options),
            currentPath: () => window.location.pathname,
          });
        },
        satisfactory ? 'satisfactory' : 'unsatisfactory',
      );
    } catch {
      leaving.current.delete(testId);
      setFinishFailed(true);
      setFinishing(false);
    }
  }

  async function report(text: string) {
    await reportTestError(sparkId, testId, text);
    setReportOpen(false);
    setNotice({ message: t('report.thanks'), tone: 'success' });
  }

  if (notFound) return <SparkNotFound sparkId={sparkId} />;

  if (failed) {
    return (
      <section className="chat-page">
        <p className="chat-page__note" role="alert">
          {t('page.invalid')}
        </p>
      </section>
    );
  }

  return (
    <div className="test-page">
      <TestTabBar
        sparkId={sparkId}
        tests={tests ?? []}
        activeId={testId}
        adding={adding}
        onAdd={() => void add()}
        onDelete={setToDelete}
      />
      <ChatPageFrame
        title={
          <h1 className="chat-page__heading test-page__heading" title={spark?.name}>
            {spark?.name ?? t('page.loading')}
          </h1>
        }
        tag={
          <span className="spark-tag spark-tag--test" title={t('page.tagTitle')} data-testid="spark-tag">
            {t('page.tag')}
          </span>
        }
        actions={
          <>
            <button
              type="button"
              className="button button--primary button--small"
              disabled={!current || finishing}
              onClick={() => {
                setFinishFailed(false);
                setFeedbackOpen(true);
              }}
            >
              {t('toolbar.finish')}
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('page.close')}
              title={t('page.close')}
              onClick={() => void navigate(sparkPath(sparkId))}
            >
              <CloseIcon />
            </button>
          </>
        }
        objectivesKey={sparkId}
        objectivesTitle={spark?.name ?? ''}
        stackOnPhone
      >
        <div className="test-toolbar" role="group" aria-label={t('toolbar.label')}>
          <span className="test-toolbar__name" title={current?.name}>
            {current?.name}
          </span>
          <div className="test-toolbar__actions">
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={!current || restarting}
              aria-busy={restarting || undefined}
              onClick={() => void restart()}
            >
              {restarting && <span className="spinner spinner--button" aria-hidden="true" />}
              {restarting ? t('toolbar.restarting') : t('toolbar.restart')}
            </button>
            <DropdownMenu
              label={t('toolbar.more')}
              button={<DotsIcon />}
              anchor="bottom end"
              entries={[
                {
                  key: 'report',
                  label: t('toolbar.report'),
                  disabled: !current,
                  onSelect: () => setReportOpen(true),
                },
                { key: 'phone', label: t('page.phone'), to: mobileTestPath(sparkId, testId), disabled: !current },
              ]}
            />
          </div>
        </div>
        {current && (
          <ChatPanel
            key={`${testId}:${chatVersion}`}
            target={{ kind: 'test', sparkId, testId }}
            autoStart
            className="chat-page__panel test-page__chat"
          />
        )}
      </ChatPageFrame>
      <LoadingOverlay phase={overlay} />
      <LimitDialog open={limitOpen} onClose={() => setLimitOpen(false)} />
      <DeleteTestDialog test={toDelete} onClose={() => setToDelete(null)} onDelete={remove} />
      <FeedbackDialog
        open={feedbackOpen}
        onClose={() => setFeedbackOpen(false)}
        onAnswer={(satisfactory) => void answer(satisfactory)}
        busy={finishing}
        failed={finishFailed}
      />
      <ReportErrorDialog open={reportOpen} onClose={() => setReportOpen(false)} onSend={report} />
      <Toast message={notice?.message ?? null} tone={notice?.tone} onDismiss={dismissNotice} />
    </div>
  );
}
