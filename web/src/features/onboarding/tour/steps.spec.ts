import { DEMO_GROUPS_DONE, DEMO_PROGRESS, DEMO_STEPS_PER_GROUP, TARGETS, tourSteps } from './steps';
import { opensDrawer, resetTourPanels, showTourPanel, tourPanel } from './tourPanels';

describe('onboarding tour steps', () => {
  it('has 5 desktop stops and 8 mobile stops (docs/product.md §2)', () => {
    expect(tourSteps('desktop').map((step) => step.id)).toEqual(['menu', 'profile', 'sparks', 'chat', 'objectives']);
    expect(tourSteps('mobile').map((step) => step.id)).toEqual([
      'drawer',
      'menu',
      'profile',
      'sparks',
      'chat',
      'mainChatButton',
      'newSparkButton',
      'objectives',
    ]);
  });

  it.each(['desktop', 'mobile'] as const)(
    'opens the Menu, then the Profile dropdown, then closes both (%s)',
    (kind) => {
      const dropdowns = tourSteps(kind).map((step) => step.dropdown);
      const menu = dropdowns.indexOf('menu');
      expect(dropdowns[menu + 1]).toBe('profile');
      expect(dropdowns.filter(Boolean)).toEqual(['menu', 'profile']);
      for (const step of tourSteps(kind)) expect(step.target === TARGETS.dropdown).toBe(step.dropdown !== null);
    },
  );

  it.each(['desktop', 'mobile'] as const)('ends on the demo objectives panel, and only there (%s)', (kind) => {
    const steps = tourSteps(kind);
    expect(steps.filter((step) => step.demo).map((step) => step.id)).toEqual(['objectives']);
    expect(steps[steps.length - 1].demo).toBe(true);
    expect(DEMO_PROGRESS).toBe(60);
  });

  it('shows demo groups whose steps add up to the ring: 6 of 10 is 60% (issue 18)', () => {
    const done = DEMO_GROUPS_DONE.reduce((sum, n) => sum + n, 0);
    const total = DEMO_GROUPS_DONE.length * DEMO_STEPS_PER_GROUP;
    expect(DEMO_GROUPS_DONE).toHaveLength(5);
    expect(DEMO_GROUPS_DONE.every((n) => n >= 0 && n <= DEMO_STEPS_PER_GROUP)).toBe(true);
    expect(Math.round((done / total) * 100)).toBe(DEMO_PROGRESS);
  });

  it('keeps the drawer open for the menu, profile and Sparks stops of the phone tour only', () => {
    const open = tourSteps('mobile')
      .filter((step) => opensDrawer(step.panel))
      .map((step) => step.id);
    expect(open).toEqual(['menu', 'profile', 'sparks']);
    expect(tourSteps('desktop').every((step) => step.panel === null)).toBe(true);
  });
});

describe('mobile tutorial panels', () => {
  afterEach(() => resetTourPanels());

  it('are mutually exclusive: showing one hides the one before', () => {
    showTourPanel('mainMenu');
    expect(tourPanel()).toBe('mainMenu');
    showTourPanel('profileDropdown');
    expect(tourPanel()).toBe('profileDropdown');
    showTourPanel('closeChat');
    expect(tourPanel()).toBe('closeChat');
    expect(opensDrawer(tourPanel())).toBe(false);
  });

  it('are all hidden by a reset', () => {
    showTourPanel('step3');
    resetTourPanels();
    expect(tourPanel()).toBeNull();
  });
});
