import type { SparkView } from '@sparks/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { api, ApiError } from '../../../api/client';
import { initTestI18n } from '../../../testing/i18n';
import SparkChatPage from './SparkChatPage';

jest.mock('../../../api/client', () => {
  const actual = jest.requireActual<typeof import('../../../api/client')>('../../../api/client');
  return {
    ...actual,
    api: {
      axios: { get: jest.fn() },
      get: jest.fn(),
      post: jest.fn(),
      patch: jest.fn(),
      delete: jest.fn(),
      endSession: jest.fn(),
    },
  };
});

jest.mock('../components/ChatPanel', () => ({ ChatPanel: () => <div data-testid="chat-panel" /> }));

const client = jest.mocked(api);
const SPARK_ID = '0b7c5a52-3d1e-4c8a-9f3b-2a6e1d4c5b70';
const spark = { _id: SPARK_ID, name: 'Tienda Ártesanía Oaxaqueña', type: 'DOC', pin: false } as SparkView;
let i18n: I18n;

function renderAt(path: string) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/spark/:sparkId" element={<SparkChatPage />} />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  );
}

beforeAll(async () => {
  i18n = await initTestI18n('en');
});

beforeEach(async () => {
  jest.clearAllMocks();
  localStorage.clear();
  await i18n.changeLanguage('en');
  client.get.mockImplementation((url: string) =>
    url === `/sparks/${SPARK_ID}` ? Promise.resolve(spark) : Promise.reject(new ApiError(404, [])),
  );
});

describe('SparkChatPage', () => {
  it.each([
    ['es', 'Spark no encontrado', 'Volver al chat'],
    ['en', 'Spark not found', 'Back to the chat'],
  ] as const)(
    'a mistyped Spark id (the api answers 400) shows the “Spark not found” page with a way back (%s)',
    async (lang, title, back) => {
      await i18n.changeLanguage(lang);
      localStorage.setItem('activeSparkId', 'not-a-uuid');
      client.get.mockRejectedValue(
        new ApiError(400, [{ code: 'VALIDATION', message: 'sparkId must be a UUID', field: 'sparkId' }]),
      );
      renderAt('/spark/not-a-uuid');
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: back })).toHaveAttribute('href', '/');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(client.endSession).not.toHaveBeenCalled();
      expect(localStorage.getItem('activeSparkId')).toBeNull();
    },
  );

  it.each([
    ['es', 'Cerrar el chat'],
    ['en', 'Close the chat'],
  ] as const)(
    'the Spark’s name has the header’s first row to itself; the tag and the buttons share another (phones, %s)',
    async (lang, close) => {
      await i18n.changeLanguage(lang);
      renderAt(`/spark/${SPARK_ID}`);
      const name = await screen.findByRole('heading', { level: 1, name: 'Tienda Ártesanía Oaxaqueña' });
      const header = name.closest('header')!;
      expect(header).toHaveClass('chat-page__header--stacked');
      const titleRow = name.closest('.chat-page__title')!;
      expect(titleRow.parentElement).toBe(header);
      // Nothing but the name (and its pencil) in the title's row …
      expect(within(titleRow as HTMLElement).queryByTestId('spark-tag')).not.toBeInTheDocument();
      expect(within(titleRow as HTMLElement).queryByRole('button', { name: close })).not.toBeInTheDocument();
      // … the tag and the buttons are a group of their own, the header's other row on a phone.
      const meta = header.querySelector('.chat-page__meta') as HTMLElement;
      expect(meta.parentElement).toBe(header);
      expect(within(meta).getByTestId('spark-tag')).toHaveTextContent('DOC');
      expect(within(meta).getByRole('button', { name: close })).toBeInTheDocument();
    },
  );

  it('?review=list (Back from a source’s document page) opens the review list on its heading', async () => {
    renderAt(`/spark/${SPARK_ID}?review=list`);
    const heading = await screen.findByRole('heading', { level: 2, name: 'What to fix in your Spark' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('button', { name: /Unanswered/ })).toHaveAttribute('aria-expanded', 'true');
  });

  it('a 404 (deleted or another user’s Spark) shows the same page', async () => {
    client.get.mockRejectedValue(new ApiError(404, [{ code: 'NOT_FOUND', message: 'Not found' }]));
    renderAt(`/spark/${SPARK_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Spark not found' })).toBeInTheDocument();
  });
});
