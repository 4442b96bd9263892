import type { ObjectiveGroupView } from '@sparks/contracts';
import { driver, type Driver, type PopoverDOM } from 'driver.js';
import 'driver.js/dist/driver.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

import { ObjectivesPanelView } from '../../objectives/ObjectivesPanel';
import {
  DEMO_GROUPS_DONE,
  DEMO_PROGRESS,
  DEMO_STEPS_PER_GROUP,
  TARGETS,
  tourSteps,
  type TourKind,
  type TourStep,
} from './steps';
import { resetTourPanels, showTourPanel } from './tourPanels';
import './tour.css';

/** docs/product.md §9: the tour's dropdowns are looked for every 100 ms (and the highlight moves in 400 ms). */
const POLL_MS = 100;
const ANIMATION_MS = 400;
/** A step whose element has not appeared by then has failed: the tour ends and the user goes to /. */
const STEP_TIMEOUT_MS = 5000;
/**
 * The first step waits longer: it starts while the page is still loading, and on a slow device (or a busy test
 * machine) its dropdown took more than 5 s to open, so the tour ended before it began.
 */
const FIRST_STEP_TIMEOUT_MS = 15_000;

export type TourEnd = 'new-spark' | 'home';

export interface TourProps {
  kind: TourKind;
  /** Where the user goes: /new-spark after "create my first Spark", / after skipping, the last "go to the chat"
   * or a failure. */
  onEnd: (end: TourEnd) => void;
  /** The step on screen, so the layout can show what it needs (the floating buttons). */
  onStep: (step: TourStep | null) => void;
}

const DEMO_GROUPS = ['business', 'knowledge', 'look', 'test', 'deploy'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isExpanded(button: Element | null): boolean {
  return button?.getAttribute('aria-expanded') === 'true';
}

/** Opens the step's dropdown and closes the other (Escape on an open menu closes it and nothing else). */
function syncDropdowns(want: TourStep['dropdown']) {
  const buttons = { menu: TARGETS.menuButton, profile: TARGETS.profileButton } as const;
  for (const name of ['menu', 'profile'] as const) {
    const button = document.querySelector<HTMLButtonElement>(buttons[name]);
    if (!button || want === name || !isExpanded(button)) continue;
    document
      .querySelector(TARGETS.dropdown)
      ?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
  }
  if (!want) return;
  const button = document.querySelector<HTMLButtonElement>(buttons[want]);
  if (button && !isExpanded(button) && !button.hasAttribute('aria-busy')) button.click();
}

/** Waits until the step's element is on screen and has stopped moving (a drawer sliding in, a menu opening). */
async function prepare(step: TourStep, first: boolean, cancelled: () => boolean): Promise<boolean> {
  showTourPanel(step.panel);
  const deadline = Date.now() + (first ? FIRST_STEP_TIMEOUT_MS : STEP_TIMEOUT_MS);
  let last = '';
  // The other dropdown closes first; a menu closing after an outside click settles within a frame or two.
  await sleep(POLL_MS);
  while (Date.now() < deadline && !cancelled()) {
    syncDropdowns(step.dropdown);
    const menuOk =
      !step.dropdown ||
      isExpanded(document.querySelector(step.dropdown === 'menu' ? TARGETS.menuButton : TARGETS.profileButton));
    const element = document.querySelector(step.target);
    if (menuOk && element) {
      const box = element.getBoundingClientRect();
      const where = `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
      if (box.width > 0 && box.height > 0 && where === last) return true;
      last = where;
    }
    await sleep(POLL_MS);
  }
  return false;
}

function addButton(popover: PopoverDOM, label: string, className: string, onClick: () => void) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = className;
  button.textContent = label;
  button.addEventListener('click', onClick);
  popover.footerButtons.prepend(button);
}

/**
 * The guided tour of docs/product.md §2/§4 on driver.js (started by `activateTutorial`): five stops on a desktop, eight on a
 * phone, opening and closing the Menu and Profile dropdowns and, on a phone, the drawer's tutorial panels; a demo
 * objectives panel at 60% for the last stop. Skipping (the skip button, ×, Escape) or a failure ends on /, the
 * last stop offers /new-spark or /.
 */
export default function Tour({ kind, onEnd, onStep }: TourProps) {
  const { t } = useTranslation('onboarding');
  const steps = tourSteps(kind);
  const [demo, setDemo] = useState(false);
  const ended = useRef(false);
  const callbacks = useRef({ onEnd, onStep });
  callbacks.current = { onEnd, onStep };

  // Two groups done, two under way, one pending: 6 of 10 steps, the 60% of the demo's ring.
  const demoGroups = useMemo<ObjectiveGroupView[]>(
    () =>
      DEMO_GROUPS.map((id, index) => {
        const done = DEMO_GROUPS_DONE[index] ?? 0;
        return {
          _id: `demo-${id}`,
          title: t(`demo.groups.${id}.title`),
          status: done === DEMO_STEPS_PER_GROUP ? 'completed' : done > 0 ? 'inProgress' : 'pending',
          steps: (['a', 'b'] as const).map((step, position) => ({
            _id: `demo-${id}-${step}`,
            title: t(`demo.groups.${id}.${step}`),
            status: position < done ? 'completed' : 'pending',
          })),
        };
      }),
    [t],
  );

  useEffect(() => {
    let tour: Driver | null = null;
    let moving = false;
    ended.current = false;
    const cancelled = () => ended.current;

    const finish = (end: TourEnd) => {
      if (ended.current) return;
      ended.current = true;
      tour?.destroy();
      resetTourPanels();
      syncDropdowns(null);
      setDemo(false);
      callbacks.current.onStep(null);
      callbacks.current.onEnd(end);
    };

    const go = async (index: number) => {
      if (moving || ended.current) return;
      const step = steps[index];
      if (!step) return finish('new-spark');
      moving = true;
      setDemo(step.demo);
      callbacks.current.onStep(step);
      const ready = await prepare(step, !tour?.isActive(), cancelled);
      moving = false;
      if (ended.current) return;
      if (!ready) return finish('home');
      if (tour?.isActive()) tour.moveTo(index);
      else tour?.drive(index);
    };

    tour = driver({
      animate: true,
      duration: ANIMATION_MS,
      allowClose: true,
      overlayClickBehavior: () => undefined,
      disableActiveInteraction: true,
      showProgress: true,
      smoothScroll: false,
      stagePadding: 6,
      popoverClass: 'tour-popover',
      nextBtnText: t('buttons.next'),
      prevBtnText: t('buttons.back'),
      doneBtnText: t('buttons.createSpark'),
      steps: steps.map((step, index) => ({
        element: () => document.querySelector(step.target) ?? document.body,
        popover: {
          title: t(`steps.${step.id}.title`),
          description: t(`steps.${step.id}.text`),
          side: step.side,
          align: 'start',
          progressText: t('progress', { current: index + 1, total: steps.length }),
        },
      })),
      onNextClick: () => {
        const index = tour?.getActiveIndex() ?? 0;
        if (index >= steps.length - 1) finish('new-spark');
        else void go(index + 1);
      },
      onPrevClick: () => void go(Math.max(0, (tour?.getActiveIndex() ?? 0) - 1)),
      // ×, Escape: the user skips the tour.
      onDestroyStarted: () => finish('home'),
      onPopoverRender: (popover) => {
        popover.closeButton.setAttribute('aria-label', t('buttons.skip'));
        popover.closeButton.setAttribute('title', t('buttons.skip'));
        const last = (tour?.getActiveIndex() ?? 0) >= steps.length - 1;
        if (last) addButton(popover, t('buttons.goToChat'), 'tour-popover__extra', () => finish('home'));
        else addButton(popover, t('buttons.skip'), 'tour-popover__skip', () => finish('home'));
      },
    });
    void go(0);
    return () => {
      if (!ended.current) {
        ended.current = true;
        tour?.destroy();
        resetTourPanels();
      }
    };
  }, [steps, t]);

  return demo
    ? createPortal(
        <div data-tour="objectives-demo" className="tour-demo" inert>
          <ObjectivesPanelView
            id="tour-objectives-demo"
            name={t('demo.name')}
            progress={DEMO_PROGRESS}
            content={demoGroups}
            open
            onClose={() => undefined}
            className="objectives-panel--demo"
          />
        </div>,
        document.body,
      )
    : null;
}
