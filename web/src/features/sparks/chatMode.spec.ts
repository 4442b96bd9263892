import { chatModeForPath, getChatMode, isSystemPage, setChatMode } from './chatMode';

describe('chat mode (docs/product.md §4)', () => {
  it.each([
    ['/settings', 'Menu'],
    ['/billing', 'Menu'],
    ['/deploy', 'Menu'],
    ['/profile', 'Menu'],
    ['/new-spark', 'Menu'],
    ['/onBoarding', 'Menu'],
    ['/spark/onboarding', 'Menu'],
    ['/spark/abc', 'Normal'],
    ['/spark/abc/test/t1', 'Test'],
    ['/mobile-test/abc/t1', 'Test'],
    ['/', null],
    ['/nope', null],
  ])('%s sets %s', (path, mode) => {
    expect(chatModeForPath(path)).toBe(mode);
  });

  it('knows the system pages', () => {
    expect(isSystemPage('/deploy')).toBe(true);
    expect(isSystemPage('/spark/abc')).toBe(false);
    expect(isSystemPage('/')).toBe(false);
  });

  it('keeps the mode', () => {
    setChatMode('Test');
    expect(getChatMode()).toBe('Test');
    setChatMode('Normal');
    expect(getChatMode()).toBe('Normal');
  });
});
