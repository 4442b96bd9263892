import { objectivesKeyFor, showsObjectivesButton } from './visibility';

describe('objectives panel visibility (docs/product.md §2)', () => {
  it.each(['/', '/onboarding', '/onBoarding', '/new-spark', '/settings', '/spark/onboarding', '/nope'])(
    'hides the opening button on %s',
    (path) => {
      expect(showsObjectivesButton(path)).toBe(false);
      expect(objectivesKeyFor(path)).toBeNull();
    },
  );

  it.each([
    ['/deploy', 'deploy'],
    ['/profile', 'profile'],
    ['/billing', 'billing'],
    ['/billing/', 'billing'],
    ['/spark/0b5f0c2e-6a57-4c52-9d3c-0d9f2f1b3a11', '0b5f0c2e-6a57-4c52-9d3c-0d9f2f1b3a11'],
    ['/spark/abc/test/t1', 'abc'],
  ])('shows it on %s, with the key %s', (path, key) => {
    expect(showsObjectivesButton(path)).toBe(true);
    expect(objectivesKeyFor(path)).toBe(key);
  });
});
