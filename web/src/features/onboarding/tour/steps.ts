import type { TourPanel } from './tourPanels';

export type TourKind = 'desktop' | 'mobile';

/** One stop of the onboarding tour (docs/product.md §2, §4). */
export interface TourStep {
  /** The key of its title and text under `steps.` in the onboarding catalogue. */
  id: 'menu' | 'profile' | 'sparks' | 'chat' | 'objectives' | 'drawer' | 'mainChatButton' | 'newSparkButton';
  /** The element highlighted (CSS selector); it may appear only once the step's dropdown or panel is open. */
  target: string;
  /** The sidebar dropdown open during the step; the other one is closed. */
  dropdown: 'menu' | 'profile' | null;
  /** On phones: the tutorial panel showing (the panels are mutually exclusive). */
  panel: TourPanel | null;
  /** The demo objectives panel at 60% is on screen. */
  demo: boolean;
  /** The floating buttons are shown even where the page would hide them (the main-chat one on /). */
  floatingButtons: boolean;
  side: 'top' | 'right' | 'bottom' | 'left';
}

/** The progress of the demo objectives panel (docs/product.md §2: "a demo objectives panel at 60% progress"). */
export const DEMO_PROGRESS = 60;

/** The demo's five groups of {@link DEMO_STEPS_PER_GROUP} steps: how many of each are done — 6 of 10, the 60% of the ring. */
export const DEMO_STEPS_PER_GROUP = 2;
export const DEMO_GROUPS_DONE: readonly number[] = [2, 2, 1, 1, 0];

export const TARGETS = {
  dropdown: '.menu__items',
  menuButton: '.sidebar__top .menu--main > button',
  profileButton: '.sidebar__top .menu--profile > button',
  sparks: '.sidebar .sparks-nav',
  chat: '.chat-panel__composer',
  objectives: '[data-tour="objectives-demo"]',
  drawerToggle: '.header-menu-toggle-slot',
  mainChatButton: '[data-tour="fab-main-chat"]',
  newSparkButton: '[data-tour="fab-new-spark"]',
} as const;

const base = { dropdown: null, panel: null, demo: false, floatingButtons: false } as const;

/** Five stops on a desktop: the Menu and Profile dropdowns (opened and closed by the tour), the Sparks, the chat and
 * the objectives. */
const DESKTOP: readonly TourStep[] = [
  { ...base, id: 'menu', target: TARGETS.dropdown, dropdown: 'menu', side: 'right' },
  { ...base, id: 'profile', target: TARGETS.dropdown, dropdown: 'profile', side: 'right' },
  { ...base, id: 'sparks', target: TARGETS.sparks, side: 'right' },
  { ...base, id: 'chat', target: TARGETS.chat, side: 'top' },
  { ...base, id: 'objectives', target: TARGETS.objectives, demo: true, side: 'left' },
];

/** Eight on a phone: the drawer button, the main menu, the profile dropdown, the Sparks (step 3 of the drawer), the
 * full-screen chat (drawer closed), the two floating buttons and the objectives. */
const MOBILE: readonly TourStep[] = [
  { ...base, id: 'drawer', target: TARGETS.drawerToggle, side: 'bottom' },
  { ...base, id: 'menu', target: TARGETS.dropdown, dropdown: 'menu', panel: 'mainMenu', side: 'bottom' },
  { ...base, id: 'profile', target: TARGETS.dropdown, dropdown: 'profile', panel: 'profileDropdown', side: 'bottom' },
  { ...base, id: 'sparks', target: TARGETS.sparks, panel: 'step3', side: 'bottom' },
  { ...base, id: 'chat', target: TARGETS.chat, panel: 'closeChat', side: 'top' },
  {
    ...base,
    id: 'mainChatButton',
    target: TARGETS.mainChatButton,
    panel: 'closeChat',
    floatingButtons: true,
    side: 'top',
  },
  {
    ...base,
    id: 'newSparkButton',
    target: TARGETS.newSparkButton,
    panel: 'closeChat',
    floatingButtons: true,
    side: 'top',
  },
  { ...base, id: 'objectives', target: TARGETS.objectives, panel: 'closeChat', demo: true, side: 'top' },
];

export function tourSteps(kind: TourKind): readonly TourStep[] {
  return kind === 'mobile' ? MOBILE : DESKTOP;
}
