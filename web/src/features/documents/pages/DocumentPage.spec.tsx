import type { DocumentPagesView, DocumentView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { api, ApiError } from '../../../api/client';
import { initTestI18n } from '../../../testing/i18n';
import DocumentPage from './DocumentPage';

jest.mock('../../../api/client', () => {
  const actual = jest.requireActual<typeof import('../../../api/client')>('../../../api/client');
  return { ...actual, api: { get: jest.fn() } };
});

const client = jest.mocked(api);
const PAGES_PATH = '/sparks/s1/documents/d1/pages';

const menu: DocumentView = {
  _id: 'd1',
  sparkId: 's1',
  bucketFileId: 'b1',
  name: 'menu-2026.pdf',
  title: 'Menu',
  titleSet: true,
  size: 1234,
  status: 'completed',
  pages: 25,
  chars: 9000,
  language: 'es',
  error: null,
  errorMessage: null,
  source: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
};

/** What GET …/pages answers for `offset` and `limit`: page 13 has no text, the others two lines each. */
function pagesOf(document: DocumentView, offset: number, limit: number): DocumentPagesView {
  const total = document.status === 'completed' ? (document.pages ?? 0) : 0;
  const pages = [];
  for (let page = offset + 1; page <= Math.min(total, offset + limit); page++) {
    const text = page === 13 ? '' : `Page ${page} first line\nsecond line of ${page}`;
    pages.push({ page, chars: text.length, text, noText: text === '', littleText: false });
  }
  return { document, emptyPages: total >= 13 ? [13] : [], offset, limit, total, pages };
}

/** The api: the Spark's name, and the document's pages (or the error `failure` gives). */
function answer(document: DocumentView, failure?: ApiError) {
  client.get.mockImplementation((path: string, config?: { params?: Record<string, unknown> }) => {
    if (path === '/sparks/s1') return Promise.resolve({ _id: 's1', name: 'Bakery bot' });
    if (path !== PAGES_PATH) return Promise.reject(new Error(`unexpected ${path}`));
    if (failure) return Promise.reject(failure);
    return Promise.resolve(pagesOf(document, Number(config?.params?.offset), Number(config?.params?.limit)));
  });
}

/** A page's heading with the cited mark (jsdom puts a space before the hidden comma, browsers do not). */
const cited = (heading: string, mark: string) => new RegExp(`^${heading} ?, ${mark}$`);

const offsetsAsked = () =>
  client.get.mock.calls
    .filter(([path]) => path === PAGES_PATH)
    .map(([, config]) => (config as { params: { offset: number; limit: number } }).params);

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string, state?: unknown) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter
        initialEntries={[
          { pathname: path.split('?')[0], search: path.includes('?') ? `?${path.split('?')[1]}` : '', state },
        ]}
      >
        <Routes>
          <Route path="/spark/:sparkId/documents/:documentId" element={<DocumentPage />} />
          <Route path="/spark/:sparkId" element={<p>The Spark</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </SWRConfig>,
  );
}

const scrolled = jest.fn();
let i18n: I18n;
beforeAll(async () => {
  i18n = await initTestI18n('en');
  // jsdom lays nothing out.
  Element.prototype.scrollIntoView = scrolled;
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  client.get.mockReset();
  scrolled.mockReset();
  answer(menu);
});

describe('DocumentPage (issue 35 item 2)', () => {
  it('shows the document, opens at the asked page, marks it and takes the focus to it', async () => {
    renderAt('/spark/s1/documents/d1?page=12');
    expect(screen.getByRole('status')).toHaveTextContent('Loading the document…');
    expect(await screen.findByRole('heading', { level: 1, name: 'Menu' })).toBeInTheDocument();
    expect(screen.getByText('Read')).toHaveClass('document-status--completed');
    expect(screen.getByText('25 pages')).toBeInTheDocument();
    expect(screen.getByText('File: menu-2026.pdf')).toBeInTheDocument();
    expect(screen.getByText('1 page has no text your Spark could read: 13.')).toBeInTheDocument();
    // The run of ten pages the asked one is in.
    expect(offsetsAsked()).toEqual([{ offset: 10, limit: 10 }]);
    const heading = await screen.findByRole('heading', { level: 2, name: cited('Page 12 of 25', 'Cited page') });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(scrolled).toHaveBeenCalledWith({ block: 'start' });
    expect(scrolled.mock.instances).toEqual([heading]);
    const section = heading.closest('section');
    expect(section).toHaveAttribute('aria-current', 'page');
    expect(document.querySelectorAll('[aria-current]')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Page ${i + 11} of 25${i === 1 ? ', Cited page' : ''}`),
    );
    // The text as read, with its line breaks, in the document's language.
    const text = within(section as HTMLElement).getByText(/first line/);
    expect(text.textContent).toBe('Page 12 first line\nsecond line of 12');
    expect(text).toHaveAttribute('lang', 'es');
  });

  it('flags a page with no text', async () => {
    renderAt('/spark/s1/documents/d1?page=13');
    const heading = await screen.findByRole('heading', { name: cited('Page 13 of 25', 'Cited page') });
    expect(
      within(heading.closest('section') as HTMLElement).getByText(/No text could be read on this page/),
    ).toBeVisible();
  });

  it('adds later and earlier pages on demand, the focus on the page next to those shown', async () => {
    renderAt('/spark/s1/documents/d1?page=12');
    await screen.findByRole('heading', { name: cited('Page 12 of 25', 'Cited page') });
    fireEvent.click(screen.getByRole('button', { name: 'Later pages (21–25)' }));
    const next = await screen.findByRole('heading', { name: 'Page 21 of 25' });
    await waitFor(() => expect(next).toHaveFocus());
    expect(screen.queryByRole('button', { name: /Later pages/ })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Earlier pages (1–10)' }));
    const before = await screen.findByRole('heading', { name: 'Page 10 of 25' });
    await waitFor(() => expect(before).toHaveFocus());
    expect(screen.queryByRole('button', { name: /Earlier pages/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(25);
    expect(offsetsAsked()).toEqual([
      { offset: 10, limit: 10 },
      { offset: 20, limit: 10 },
      { offset: 0, limit: 10 },
    ]);
  });

  it('opens at the first page without ?page=, and says when the asked page is past the end', async () => {
    const { unmount } = renderAt('/spark/s1/documents/d1');
    expect(await screen.findByRole('heading', { name: cited('Page 1 of 25', 'Cited page') })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Earlier pages/ })).not.toBeInTheDocument();
    unmount();

    renderAt('/spark/s1/documents/d1?page=40');
    expect(await screen.findByText('Page 40 is not in this document: it has 25 pages now.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Page 21 of 25' })).toBeInTheDocument();
    expect(document.querySelectorAll('[aria-current]')).toHaveLength(0);
  });

  it('says a document still being read, and one that could not be read', async () => {
    answer({ ...menu, status: 'inProgress', pages: null });
    const { unmount } = renderAt('/spark/s1/documents/d1?page=2');
    expect(await screen.findByText('Being read')).toBeInTheDocument();
    expect(screen.getByText(/still reading this document/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    unmount();

    answer({ ...menu, status: 'error', pages: null, error: 'PDF_ENCRYPTED', errorMessage: 'The PDF is protected.' });
    renderAt('/spark/s1/documents/d1?page=2');
    expect(await screen.findByText('Could not be read')).toBeInTheDocument();
    expect(screen.getByText('The PDF is protected.')).toBeInTheDocument();
  });

  it.each([404, 400])('says "Document not found" when the api answers %i', async (status) => {
    answer(menu, new ApiError(status, [{ code: 'NOT_FOUND', message: 'Not found' }]));
    renderAt('/spark/s1/documents/d1?page=2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Document not found' })).toBeInTheDocument();
    expect(screen.getByText(/does not exist, was deleted, or belongs to another account/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the Spark' })).toHaveAttribute('href', '/spark/s1');
  });

  it('offers to try again when the document could not be loaded', async () => {
    answer(menu, new ApiError(500, [{ code: 'INTERNAL', message: 'Server error' }]));
    renderAt('/spark/s1/documents/d1?page=2');
    expect(await screen.findByRole('alert')).toHaveTextContent('The document could not be loaded.');
    answer(menu);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Menu' })).toBeInTheDocument();
  });

  it('leads back to the Spark, and to its review list when opened from it', async () => {
    const { unmount } = renderAt('/spark/s1/documents/d1?page=2');
    expect(await screen.findByRole('link', { name: 'Back to Bakery bot' })).toHaveAttribute('href', '/spark/s1');
    unmount();

    renderAt('/spark/s1/documents/d1?page=2', { from: 'review' });
    const back = await screen.findByRole('link', { name: 'Back to Bakery bot' });
    expect(back).toHaveAttribute('href', '/spark/s1?review=list');
    fireEvent.click(back);
    expect(screen.getByTestId('where')).toHaveTextContent('/spark/s1?review=list');
  });

  it('speaks Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    const { unmount } = renderAt('/spark/s1/documents/d1?page=13');
    expect(await screen.findByRole('link', { name: 'Volver a Bakery bot' })).toBeInTheDocument();
    expect(screen.getByText('Leído')).toBeInTheDocument();
    expect(screen.getByText('25 páginas')).toBeInTheDocument();
    expect(screen.getByText('Archivo: menu-2026.pdf')).toBeInTheDocument();
    const heading = await screen.findByRole('heading', { name: cited('Página 13 de 25', 'Página citada') });
    expect(within(heading.closest('section') as HTMLElement).getByText(/No se ha podido leer texto/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Páginas anteriores (1–10)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Páginas siguientes (21–25)' })).toBeInTheDocument();

    unmount();

    answer(menu, new ApiError(404, [{ code: 'NOT_FOUND', message: 'Not found' }]));
    renderAt('/spark/s1/documents/d1');
    expect(await screen.findByRole('heading', { name: 'Documento no encontrado' })).toBeInTheDocument();
  });
});
