import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';

import * as sparksApi from '../../sparks/api';
import { initChatTestI18n } from '../testing';
import { WelcomeBubble } from './WelcomeBubble';

jest.mock('../../sparks/api');
jest.mock('../../account/useProfile', () => ({ useProfile: () => ({ data: mockProfile.current }) }));
const mockProfile: { current: { firstname?: string; username: string } } = { current: { username: 'ana@x.io' } };

const HOSTILE = '<img src=x onerror=alert(1)>[x](javascript:alert(2))<script>alert(3)</script>';

let i18n: I18n;
beforeAll(async () => {
  i18n = await initChatTestI18n('en');
});
beforeEach(() => {
  jest.mocked(sparksApi.fetchSparks).mockResolvedValue({ items: [], total: 0 } as never);
});

function renderBubble() {
  return render(
    <I18nextProvider i18n={i18n}>
      <SWRConfig value={{ provider: () => new Map() }}>
        <MemoryRouter>
          <WelcomeBubble />
        </MemoryRouter>
      </SWRConfig>
    </I18nextProvider>,
  );
}

describe('WelcomeBubble', () => {
  it('greets by the part of the e-mail before the "@" when there is no first name', () => {
    mockProfile.current = { username: 'ana.garcia@example.com' };
    renderBubble();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('ana.garcia');
    expect(screen.getByRole('heading', { level: 2 })).not.toHaveTextContent('@example.com');
  });

  it('shows a hostile first name as typed: no element, link or image made from it', () => {
    mockProfile.current = { firstname: HOSTILE, username: 'ana@x.io' };
    const { container } = renderBubble();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(HOSTILE);
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
  });
});
