import type { ParseKeys } from 'i18next';

/** One entry of the navigation list of docs/product.md §2: id, title and path. */
export interface NavigationEntry {
  id: number;
  title: string;
  path: string;
  /** The translation of the entry's label (namespace `common`). */
  labelKey: ParseKeys<'common'>;
  /** Not listed in the main menu (docs/product.md §2: "profile and one more entry are hidden"). */
  hidden?: boolean;
}

/** docs/product.md §2 navigation list (id 4 is absent in the specification, and stays absent). */
export const NAVIGATION: readonly NavigationEntry[] = [
  { id: 1, title: 'new-spark', path: '/new-spark', labelKey: 'nav.newSpark' },
  { id: 2, title: 'deploy', path: '/deploy', labelKey: 'nav.deploy' },
  { id: 3, title: 'billing', path: '/billing', labelKey: 'nav.billing' },
  { id: 5, title: 'profile-menu', path: '/profile', labelKey: 'nav.profile', hidden: true },
  { id: 6, title: 'main_chat', path: '/', labelKey: 'nav.mainChat', hidden: true },
  { id: 7, title: 'onBoarding', path: '/onBoarding', labelKey: 'nav.onboarding' },
];

/** The settings page is reached from the menu but is not part of the numbered list. */
const SETTINGS_ENTRY = { title: 'settings', path: '/settings', labelKey: 'nav.settings' } as const;
/** Nor is the analytics of all the owner's Sparks (issue 35 item 4). */
const ANALYTICS_ENTRY = { title: 'analytics', path: '/analytics', labelKey: 'nav.analytics' } as const;

export interface MainMenuEntry {
  title: string;
  path: string;
  labelKey: ParseKeys<'common'>;
}

/** docs/product.md §2 main menu, in its order: settings, billing, deploy, new-spark and onBoarding; then analytics. */
export const MAIN_MENU: readonly MainMenuEntry[] = [
  SETTINGS_ENTRY,
  ...['billing', 'deploy', 'new-spark', 'onBoarding'].map((title) => {
    const entry = NAVIGATION.find((candidate) => candidate.title === title && !candidate.hidden);
    if (!entry) throw new Error(`navigation entry ${title} is missing`);
    return { title: entry.title, path: entry.path, labelKey: entry.labelKey };
  }),
  ANALYTICS_ENTRY,
];
