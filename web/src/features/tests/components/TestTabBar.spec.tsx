import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';

import { initTestI18n } from '../../../testing/i18n';
import { TestTabBar } from './TestTabBar';

const tests = ['Test 1', 'Test 2', 'Test 3', 'Test 4', 'Test 5'].map((name, i) => ({
  _id: `t${i + 1}`,
  name,
  sparkId: 's1',
  params: {},
  createdAt: '2026-11-28T00:00:00.000Z',
}));

beforeAll(() => initTestI18n('en'));

describe('TestTabBar', () => {
  it('scrolls the open test’s tab into the bar, again when another test is opened', () => {
    const scrolled: string[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.getAttribute('data-test-id') ?? '');
    };
    try {
      const bar = (activeId: string) => (
        <MemoryRouter>
          <TestTabBar sparkId="s1" tests={tests} activeId={activeId} onAdd={jest.fn()} onDelete={jest.fn()} />
        </MemoryRouter>
      );
      const { rerender } = render(bar('t4'));
      expect(scrolled).toEqual(['t4']);
      rerender(bar('t5'));
      expect(scrolled).toEqual(['t4', 't5']);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });
});
