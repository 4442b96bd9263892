import type { UnansweredGroupView } from '@sparks/contracts';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { initTestI18n } from '../../testing/i18n';
import * as insightsApi from './api';
import { UnansweredPanel } from './UnansweredPanel';

jest.mock('./api', () => {
  const actual = jest.requireActual<typeof import('./api')>('./api');
  return { ...actual, fetchUnanswered: jest.fn(), fetchChecks: jest.fn(), fetchTranscripts: jest.fn() };
});
const api = jest.mocked(insightsApi);

const ratedDown: UnansweredGroupView = {
  id: 'q1',
  reason: 'ratedDown',
  question: 'How much is an electric bike per day?',
  variants: ['How much is an electric bike per day?'],
  count: 1,
  firstAskedAt: '2026-11-29T10:00:00.000Z',
  lastAskedAt: '2026-11-29T10:00:00.000Z',
  status: 'open',
  answeredAt: null,
  answer: null,
  answerGiven: 'Electric bikes cost 45 dollars per day.\n\n_Northwind prices, page 2_',
  // The same passage twice (two chunks of one page), and another document.
  sources: [
    { documentId: 'd1', document: 'Northwind prices', page: 2 },
    { documentId: 'd1', document: 'Northwind prices', page: 2 },
    { documentId: 'd2', document: 'Rental terms', page: 14 },
  ],
  ratedBy: 'visitor',
  ratedAt: '2026-11-29T10:05:00.000Z',
  comment: 'It is 50 dollars since May.',
};

/** The document page, as far as these links are concerned: where it was opened and what the link carried. */
function Opened() {
  const location = useLocation();
  return (
    <p data-testid="opened">
      {location.pathname + location.search} {JSON.stringify(location.state)}
    </p>
  );
}

function renderPanel() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/spark/s1']}>
        <Routes>
          <Route
            path="/spark/:sparkId"
            element={
              <UnansweredPanel
                id="review"
                sparkId="s1"
                sparkName="Northwind"
                open
                transcriptConversation={() => null}
                onClose={jest.fn()}
              />
            }
          />
          <Route path="/spark/:sparkId/documents/:documentId" element={<Opened />} />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  );
}

let i18n: I18n;
beforeAll(async () => {
  i18n = await initTestI18n('en');
});
beforeEach(async () => {
  jest.resetAllMocks();
  await i18n.changeLanguage('en');
  api.fetchUnanswered.mockResolvedValue([ratedDown]);
  api.fetchChecks.mockResolvedValue([]);
  api.fetchTranscripts.mockResolvedValue([]);
});

describe('UnansweredPanel: the sources of what the Spark said (issue 35 item 2)', () => {
  it('links each source, once, to its page of the document', async () => {
    renderPanel();
    const group = await screen.findByTestId('unanswered-group');
    const sources = within(group).getByRole('list', { name: 'Sources:' });
    const links = within(sources).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Northwind prices, page 2', '/spark/s1/documents/d1?page=2'],
      ['Rental terms, page 14', '/spark/s1/documents/d2?page=14'],
    ]);

    fireEvent.click(links[1]);
    // Opened from the review list: the document page's Back returns to it.
    expect(screen.getByTestId('opened')).toHaveTextContent('/spark/s1/documents/d2?page=14 {"from":"review"}');
  });

  it('shows no sources for a question the documents did not cover', async () => {
    api.fetchUnanswered.mockResolvedValue([
      { ...ratedDown, reason: 'notCovered', answerGiven: 'Sorry, I cannot find that.', sources: [] },
    ]);
    renderPanel();
    const group = await screen.findByTestId('unanswered-group');
    expect(within(group).queryByRole('list', { name: 'Sources:' })).not.toBeInTheDocument();
    expect(within(group).queryByRole('link')).not.toBeInTheDocument();
  });

  it('names the sources in Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    renderPanel();
    const group = await screen.findByTestId('unanswered-group');
    const sources = within(group).getByRole('list', { name: 'Fuentes:' });
    expect(within(sources).getByRole('link', { name: 'Rental terms, página 14' })).toHaveAttribute(
      'href',
      '/spark/s1/documents/d2?page=14',
    );
  });
});
