import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';

import { initTestI18n } from '../testing/i18n';
import { FloatingButtons } from './FloatingButtons';

function mockScreen(small: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('767.98') ? small : true,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

function renderAt(path: string, forced = false) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <FloatingButtons forced={forced} />
    </MemoryRouter>,
  );
}

beforeAll(() => initTestI18n('en'));

describe('FloatingButtons', () => {
  it('on a phone: a new-Spark button on the main chat, no main-chat button there', () => {
    mockScreen(true);
    renderAt('/');
    expect(screen.getByRole('link', { name: 'Create a new Spark' })).toHaveAttribute('href', '/new-spark');
    expect(screen.queryByRole('link', { name: 'Go to the main chat' })).not.toBeInTheDocument();
  });

  it('on a phone elsewhere: the main-chat button opens /?mainChat=true; none for new Spark on /new-spark', () => {
    mockScreen(true);
    renderAt('/new-spark');
    expect(screen.getByRole('link', { name: 'Go to the main chat' })).toHaveAttribute('href', '/?mainChat=true');
    expect(screen.queryByRole('link', { name: 'Create a new Spark' })).not.toBeInTheDocument();
  });

  it('on a tablet: only the main-chat button', () => {
    mockScreen(false);
    renderAt('/settings');
    expect(screen.getByRole('link', { name: 'Go to the main chat' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create a new Spark' })).not.toBeInTheDocument();
  });

  it('shows both while the tour points at them', () => {
    mockScreen(false);
    renderAt('/', true);
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });
});
