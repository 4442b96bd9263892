import { MAIN_MENU, NAVIGATION } from './navigation';

describe('navigation (docs/product.md §2)', () => {
  it('keeps the numbered list with ids 1, 2, 3, 5, 6 and 7', () => {
    expect(NAVIGATION.map(({ id, title, path }) => [id, title, path])).toEqual([
      [1, 'new-spark', '/new-spark'],
      [2, 'deploy', '/deploy'],
      [3, 'billing', '/billing'],
      [5, 'profile-menu', '/profile'],
      [6, 'main_chat', '/'],
      [7, 'onBoarding', '/onBoarding'],
    ]);
  });

  it('lists settings, billing, deploy, new-spark and onBoarding in the main menu, then analytics', () => {
    expect(MAIN_MENU.map((entry) => entry.path)).toEqual([
      '/settings',
      '/billing',
      '/deploy',
      '/new-spark',
      '/onBoarding',
      '/analytics',
    ]);
  });
});
