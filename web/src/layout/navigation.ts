/**
 * The sidebar menu of the shell: the main chat first, then the main-menu entries of spec §2
 * (new-spark, deploy, billing, settings, profile, onBoarding).
 */
export const SIDEBAR_LINKS = [
  { path: '/', labelKey: 'nav.mainChat', end: true },
  { path: '/new-spark', labelKey: 'nav.newSpark', end: false },
  { path: '/deploy', labelKey: 'nav.deploy', end: false },
  { path: '/billing', labelKey: 'nav.billing', end: false },
  { path: '/settings', labelKey: 'nav.settings', end: false },
  { path: '/profile', labelKey: 'nav.profile', end: false },
  { path: '/onBoarding', labelKey: 'nav.onboarding', end: false },
] as const;
