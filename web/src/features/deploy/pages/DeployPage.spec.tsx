import { fireEvent, render, screen } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';

import enDeploy from '../../../../public/locales/en/deploy.json';
import esDeploy from '../../../../public/locales/es/deploy.json';
import { initI18n } from '../../../i18n';
import { catalogues } from '../../../testing/i18n';
import DeployPage from './DeployPage';

/** Each mount of the deploy chat: the first message it was asked to send (`?q=`), if any. */
const mockChats: Array<{ initialText: string | undefined }> = [];
/** The Spark the panel was asked to preselect, per render. */
const mockPanels: Array<string | undefined> = [];

jest.mock('../../chat/components/ChatPanel', () => {
  const { useEffect } = jest.requireActual<typeof import('react')>('react');
  return {
    ChatPanel: function MockChatPanel({ initialText, refreshOn }: { initialText?: string; refreshOn?: string | null }) {
      useEffect(() => {
        mockChats.push({ initialText });
        // Runs once per mount, as useChat's start does.
        // eslint-disable-next-line react-hooks/exhaustive-deps
      }, []);
      return <div data-testid="chat-panel" data-refresh-on={refreshOn ?? ''} />;
    },
  };
});
jest.mock('../components/DeployPanel', () => ({
  DeployPanel: ({ q, onFirstSeen }: { q?: string; onFirstSeen?: () => void }) => {
    mockPanels.push(q);
    return (
      <div data-testid="deploy-panel" data-q={q ?? ''}>
        <button type="button" onClick={onFirstSeen}>
          seen
        </button>
      </div>
    );
  },
}));
jest.mock('../../chat/hooks/useAfterReply', () => ({ useAfterReply: () => () => undefined }));
jest.mock('../../chat/components/ChatPageFrame', () => ({
  ChatPageFrame: ({ title, children }: { title: ReactNode; children: ReactNode }) => (
    <section>
      <header>{title}</header>
      {children}
    </section>
  ),
}));

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

/** A browser router on jsdom's history: a reload is a new render of the same history entry. */
function load() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <BrowserRouter>
        <Routes>
          <Route path="/deploy" element={<DeployPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </BrowserRouter>
    </SWRConfig>,
  );
}

let i18n: I18n;
beforeAll(async () => {
  i18n = await initI18n(i18next.createInstance(), {
    resources: {
      en: { ...catalogues.en, deploy: enDeploy },
      es: { ...catalogues.es, deploy: esDeploy },
    },
    lng: 'en',
  });
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  mockChats.length = 0;
  mockPanels.length = 0;
});

describe('DeployPage ?q=', () => {
  it('sends the Spark named by ?q= once: the address loses it (replaced), a reload does not send it again', async () => {
    window.history.replaceState(null, '', '/spark/s1');
    window.history.pushState(null, '', `/deploy?q=${encodeURIComponent('Café Luna')}`);
    const entries = window.history.length;
    const first = load();
    await screen.findByTestId('chat-panel');

    expect(mockChats).toEqual([{ initialText: 'Café Luna' }]);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/deploy$/);
    expect(window.location.search).toBe('');
    // Replaced, not pushed: Back leaves /deploy instead of coming back to ?q=.
    expect(window.history.length).toBe(entries);
    // Clearing the address neither restarts the chat nor forgets the Spark the panel shows.
    expect(screen.getByTestId('deploy-panel')).toHaveAttribute('data-q', 'Café Luna');

    // A reload: the same history entry, rendered afresh.
    first.unmount();
    load();
    await screen.findByTestId('chat-panel');
    expect(mockChats).toEqual([{ initialText: 'Café Luna' }, { initialText: undefined }]);
    // The panel still shows the Spark the page was opened for.
    expect(screen.getByTestId('deploy-panel')).toHaveAttribute('data-q', 'Café Luna');
  });

  it('without ?q= the chat sends nothing of its own', async () => {
    window.history.replaceState(null, '', '/deploy');
    load();
    await screen.findByTestId('chat-panel');
    expect(mockChats).toEqual([{ initialText: undefined }]);
    expect(screen.getByTestId('deploy-panel')).toHaveAttribute('data-q', '');
  });
});

describe('DeployPage: the widget first seen while the page is open', () => {
  it('has the chat read its conversation again in place, not mounted afresh (a reply or a click in flight is kept)', async () => {
    window.history.replaceState(null, '', `/deploy?q=${encodeURIComponent('Café Luna')}`);
    load();
    const chat = await screen.findByTestId('chat-panel');
    expect(chat).toHaveAttribute('data-refresh-on', '');

    fireEvent.click(screen.getByRole('button', { name: 'seen' }));
    expect(screen.getByTestId('chat-panel')).toHaveAttribute('data-refresh-on', '1');
    fireEvent.click(screen.getByRole('button', { name: 'seen' }));
    expect(screen.getByTestId('chat-panel')).toHaveAttribute('data-refresh-on', '2');
    // One mount, which sent ?q= once.
    expect(screen.getByTestId('chat-panel')).toBe(chat);
    expect(mockChats).toEqual([{ initialText: 'Café Luna' }]);
  });
});
