import { useCallback, useEffect, useState } from 'react';

import { useNavigate } from '../../../lib/router';
import type { useQueryFlags } from '../../../lib/useQueryFlags';
import type { TourKind, TourStep } from './steps';
import type { TourEnd } from './Tour';

/**
 * The onboarding tour (docs/product.md §4): `activateTutorial` (or `startMobileTutorial`) starts it — the phone version when
 * the screen is below 1140 px, where its controls exist — and the parameters are dropped so a reload does not
 * start it again. It ends on /new-spark or on /. The layout that hosts it renders `Tour` while `kind` is set.
 */
export function useTour(
  mobile: boolean,
  { activateTutorial, startMobileTutorial, clear }: ReturnType<typeof useQueryFlags>,
) {
  const navigate = useNavigate();
  const [kind, setKind] = useState<TourKind | null>(null);
  const [step, setStep] = useState<TourStep | null>(null);
  useEffect(() => {
    if (!activateTutorial && !startMobileTutorial) return;
    setKind(mobile ? 'mobile' : 'desktop');
    clear('activateTutorial', 'startMobileTutorial');
  }, [activateTutorial, startMobileTutorial, mobile, clear]);
  const end = useCallback(
    (how: TourEnd) => {
      setKind(null);
      setStep(null);
      void navigate(how === 'new-spark' ? '/new-spark' : '/');
    },
    [navigate],
  );
  return { kind, step, end, setStep };
}
