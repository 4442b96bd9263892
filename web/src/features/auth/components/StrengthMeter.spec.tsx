import { render, screen, within } from '@testing-library/react';

import { initTestI18n } from '../../../testing/i18n';
import { StrengthMeter } from './StrengthMeter';

beforeAll(() => initTestI18n('en'));

function level() {
  return screen.getByTestId('strength-label').querySelector('strong')?.textContent;
}

function litSegments(container: HTMLElement) {
  return container.querySelectorAll('.strength__segment--on').length;
}

describe('StrengthMeter (docs/product.md §5)', () => {
  it.each([
    ['', 'Type a password', 0, 'none'],
    ['abc', 'Not strong', 1, 'notStrong'], // lowercase
    ['abcdefgh', 'Not strong', 2, 'notStrong'], // length, lowercase
    ['abcdefgH', 'Normal', 3, 'normal'], // + uppercase
    ['abcdefgH1', 'Strong', 4, 'strong'], // + digit
    ['abcdefgH1!', 'Very strong', 5, 'veryStrong'], // + special
    ['A1!', 'Normal', 3, 'normal'], // upper, digit, special but short
  ])('%j reads "%s" with %i criteria lit', (password, label, met, strength) => {
    const { container } = render(<StrengthMeter password={password} />);
    expect(level()).toBe(label);
    expect(litSegments(container)).toBe(met);
    expect(container.querySelector('.strength')).toHaveAttribute('data-strength', strength);
  });

  it('ticks each criterion of the checklist as it is met', () => {
    render(<StrengthMeter password="abcdefgH" />);
    const list = screen.getByRole('list');
    const states = within(list)
      .getAllByRole('listitem')
      .map((item) => [item.textContent?.replace(/ \((done|missing)\)$/, ''), item.getAttribute('data-met')]);
    expect(states).toEqual([
      ['8 to 100 characters', 'true'],
      ['A digit', 'false'],
      ['A lowercase letter', 'true'],
      ['An uppercase letter', 'true'],
      ['A special character', 'false'],
      ['No spaces', 'true'],
    ]);
  });

  it('lists the reset rule "no spaces" unmet when a password that meets every strength criterion has a space', () => {
    const { container } = render(<StrengthMeter password="Abcdef1! x" />);
    expect(level()).toBe('Very strong');
    expect(litSegments(container)).toBe(5);
    const noSpaces = within(screen.getByRole('list'))
      .getAllByRole('listitem')
      .find((item) => item.textContent?.startsWith('No spaces'));
    expect(noSpaces).toHaveAttribute('data-met', 'false');
  });

  it('counts more than 100 characters as not meeting the length', () => {
    render(<StrengthMeter password={`Aa1!${'x'.repeat(100)}`} />);
    expect(level()).toBe('Strong');
  });
});
