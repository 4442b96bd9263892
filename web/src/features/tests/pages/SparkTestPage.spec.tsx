import type { SparkTestView, SparkView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig, unstable_serialize } from 'swr';

import enTests from '../../../../public/locales/en/tests.json';
import esTests from '../../../../public/locales/es/tests.json';
import { api, ApiError } from '../../../api/client';
import { initI18n } from '../../../i18n';
import { catalogues } from '../../../testing/i18n';
import { getChatMode, setChatMode } from '../../sparks/chatMode';
import MobileTestPage from './MobileTestPage';
import SparkTestPage from './SparkTestPage';

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

interface MockChatProps {
  target: { kind: string; sparkId: string; testId: string };
  autoStart?: boolean;
}
const mockMounts: string[] = [];

jest.mock('../../chat/components/ChatPanel', () => {
  const { useEffect } = jest.requireActual<typeof import('react')>('react');
  return {
    ChatPanel: function MockChatPanel({ target, autoStart }: MockChatProps) {
      useEffect(() => {
        mockMounts.push(target.testId);
      }, [target.testId]);
      return <div data-testid="chat-panel" data-target={JSON.stringify(target)} data-autostart={String(autoStart)} />;
    },
  };
});

// The objectives panel of the real frame has its own calls; the frame's slots are what matters here.
jest.mock('../../chat/components/ChatPageFrame', () => ({
  ChatPageFrame: ({
    title,
    tag,
    actions,
    children,
    stackOnPhone,
  }: {
    title: ReactNode;
    tag: ReactNode;
    actions: ReactNode;
    children: ReactNode;
    stackOnPhone?: boolean;
  }) => (
    <section data-testid="chat-page-frame" data-stack-on-phone={String(Boolean(stackOnPhone))}>
      <header>
        {title}
        {tag}
        {actions}
      </header>
      {children}
    </section>
  ),
}));

const client = jest.mocked(api);

const spark = { _id: 's1', sparkId: 's1', name: 'Bakery bot', type: 'DOC', pin: false } as SparkView;
const makeTest = (id: string, name: string): SparkTestView => ({
  _id: id,
  sparkId: 's1',
  name,
  params: { documentId: null, waitResponse: true },
  createdAt: '2025-01-01T00:00:00.000Z',
});

let tests: SparkTestView[] = [];
let i18n: I18n;

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

/** A browser router on jsdom's history, so `window.location` follows the navigation as in the app. */
function renderAt(path: string, cached: [readonly string[], unknown][] = []) {
  window.history.replaceState(null, '', path);
  const cache = new Map<string, unknown>(cached.map(([key, data]) => [unstable_serialize(key), { data }]));
  return render(
    <SWRConfig value={{ provider: () => cache as Map<string, never>, dedupingInterval: 0 }}>
      <BrowserRouter>
        <Routes>
          <Route path="/spark/:sparkId/test/:testId" element={<SparkTestPage />} />
          <Route path="/mobile-test/:sparkId/:testId" element={<MobileTestPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </BrowserRouter>
    </SWRConfig>,
  );
}

const where = () => screen.getByTestId('where').textContent;

async function openPage(path = '/spark/s1/test/t1') {
  renderAt(path);
  await screen.findByTestId('chat-panel');
}

beforeAll(async () => {
  i18n = await initI18n(i18next.createInstance(), {
    resources: {
      en: { ...catalogues.en, tests: enTests },
      es: { ...catalogues.es, tests: esTests },
    },
    lng: 'en',
  });
});

beforeEach(async () => {
  jest.clearAllMocks();
  mockMounts.length = 0;
  localStorage.clear();
  setChatMode('Test');
  await i18n.changeLanguage('en');
  tests = [makeTest('t1', 'Test 1'), makeTest('t2', 'Opening hours on Sunday')];
  client.get.mockImplementation((url: string) => {
    if (url === '/sparks/s1') return Promise.resolve(spark);
    if (url === '/sparks/s1/tests') return Promise.resolve([...tests]);
    return Promise.reject(new Error(`unexpected GET ${url}`));
  });
  client.delete.mockImplementation((url: string) => {
    const id = url.split('/').pop()!;
    tests = tests.filter((test) => test._id !== id);
    return Promise.resolve({ deleted: true });
  });
});

describe('SparkTestPage', () => {
  it('shows the tabs (names cut), the TEST tag and the test chat, under an overlay that lingers 0.8 s', async () => {
    renderAt('/spark/s1/test/t1');
    expect(screen.getByTestId('test-loading-overlay')).toHaveTextContent('Loading…');
    expect(screen.getByTestId('test-loading-overlay')).toHaveAttribute('role', 'status');
    await screen.findByTestId('chat-panel');

    const nav = screen.getByRole('navigation', { name: 'Tests of the Spark' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Test 1', 'Opening …']);
    expect(links[0]).toHaveAttribute('aria-current', 'page');
    expect(links[1]).not.toHaveAttribute('aria-current');
    expect(links[1]).toHaveAttribute('title', 'Opening hours on Sunday');
    expect(within(nav).getByRole('button', { name: 'Delete the test Opening hours on Sunday' })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Add a test' })).toBeInTheDocument();

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Bakery bot');
    // On a phone the Spark's name gets the header's first row, the tag and the buttons the second (chat-page.css).
    expect(screen.getByTestId('chat-page-frame')).toHaveAttribute('data-stack-on-phone', 'true');
    expect(screen.getByTestId('spark-tag')).toHaveTextContent('TEST');
    expect(screen.getByRole('button', { name: 'Restart test' })).toBeInTheDocument();
    // "Report an error" is hidden behind the "…" menu.
    expect(screen.queryByText('Report an error')).not.toBeInTheDocument();
    expect(JSON.parse(screen.getByTestId('chat-panel').dataset.target!)).toEqual({
      kind: 'test',
      sparkId: 's1',
      testId: 't1',
    });
    expect(screen.getByTestId('chat-panel').dataset.autostart).toBe('true');
    expect(localStorage.getItem('activeSparkId')).toBe('s1');

    expect(screen.getByTestId('test-loading-overlay')).toHaveClass('test-overlay--fading');
    await waitFor(() => expect(screen.queryByTestId('test-loading-overlay')).not.toBeInTheDocument(), {
      timeout: 2000,
    });
  });

  it('refuses a sixth test with the alert, without asking the server', async () => {
    tests = ['a', 'b', 'c', 'd', 'e'].map((id, index) => makeTest(id, `Test ${index + 1}`));
    await openPage('/spark/s1/test/a');
    fireEvent.click(screen.getByRole('button', { name: 'Add a test' }));
    const alert = await screen.findByRole('dialog', { name: 'Test limit reached' });
    expect(alert).toHaveTextContent("You can't add more than 5 tests");
    expect(client.post).not.toHaveBeenCalled();
    fireEvent.click(within(alert).getByRole('button', { name: 'Understood' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('adds a test with a default name and opens it', async () => {
    client.post.mockImplementation((_url: string, body: unknown) => {
      const created = makeTest('t3', (body as { name: string }).name);
      tests = [...tests, created];
      return Promise.resolve(created);
    });
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Add a test' }));
    await waitFor(() => expect(where()).toBe('/spark/s1/test/t3'));
    expect(client.post).toHaveBeenCalledWith('/sparks/s1/tests', {
      name: 'Test 3',
      params: { documentId: null, waitResponse: true },
    });
    const nav = screen.getByRole('navigation', { name: 'Tests of the Spark' });
    expect(within(nav).getByRole('link', { name: 'Test 3' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the alert when the server refuses a sixth test (TESTS_LIMIT)', async () => {
    client.post.mockRejectedValue(
      new ApiError(400, [{ code: 'TESTS_LIMIT', message: "You can't add more than 5 tests" }]),
    );
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Add a test' }));
    expect(await screen.findByRole('dialog', { name: 'Test limit reached' })).toBeInTheDocument();
    expect(where()).toBe('/spark/s1/test/t1');
  });

  it('deletes a test only once its name is typed exactly, then opens the next tab', async () => {
    localStorage.setItem(
      'test_chat_conversations',
      JSON.stringify({ 's1:t1': { conversationId: 'c1', sparkId: 's1:t1', messages: [] } }),
    );
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Delete the test Test 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the test “Test 1”?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete test' });
    const field = within(dialog).getByLabelText('Type the name of the test (Test 1) to confirm');
    expect(confirm).toBeDisabled();
    fireEvent.change(field, { target: { value: 'test 1' } });
    expect(confirm).toBeDisabled();
    fireEvent.change(field, { target: { value: 'Test 1' } });
    expect(confirm).toBeEnabled();
    fireEvent.click(confirm);

    await waitFor(() => expect(where()).toBe('/spark/s1/test/t2'));
    expect(client.delete).toHaveBeenCalledWith('/sparks/s1/tests/t1');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const nav = screen.getByRole('navigation', { name: 'Tests of the Spark' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('title')),
    ).toEqual(['Opening hours on Sunday']);
    expect(localStorage.getItem('test_chat_conversations')).toBeNull();
  });

  it('goes back to the Spark after deleting its last test', async () => {
    tests = [makeTest('t1', 'Only')];
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'Delete the test Only' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Only' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete test' }));
    await waitFor(() => expect(where()).toBe('/spark/s1'));
  });

  it('restarts the test: the stored conversation is forgotten and the chat loads again', async () => {
    localStorage.setItem(
      'test_chat_conversations',
      JSON.stringify({
        's1:t1': { conversationId: 'old', sparkId: 's1:t1', messages: [] },
        's1:t2': { conversationId: 'other', sparkId: 's1:t2', messages: [] },
      }),
    );
    client.post.mockResolvedValue({ conversationId: 'new', human: {}, ai: null, messages: [] });
    await openPage();
    expect(mockMounts).toEqual(['t1']);
    fireEvent.click(screen.getByRole('button', { name: 'Restart test' }));
    await waitFor(() => expect(mockMounts).toEqual(['t1', 't1']));
    expect(client.post).toHaveBeenCalledWith('/sparks/s1/tests/t1/restart');
    expect(JSON.parse(localStorage.getItem('test_chat_conversations')!)).toEqual({
      's1:t2': { conversationId: 'other', sparkId: 's1:t2', messages: [] },
    });
    expect(screen.getByRole('button', { name: 'Restart test' })).toBeEnabled();
  });

  it('reports an error from the "…" menu and thanks the user', async () => {
    client.post.mockResolvedValue({ _id: 'e1' });
    await openPage();
    fireEvent.click(screen.getByRole('button', { name: 'More test actions' }));
    const menu = await screen.findByRole('menu');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Report an error' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report an error' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Write what went wrong.');
    expect(client.post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('What happened?'), {
      target: { value: 'It said we open on Mondays' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(client.post).toHaveBeenCalledWith('/sparks/s1/tests/t1/error', { error: 'It said we open on Mondays' });
    expect(screen.getByText('Thanks, we recorded it')).toBeInTheDocument();
  });

  it.each([
    ['No', 'test not satisfactory', 'unsatisfactory'],
    ['Yes', 'test satisfactory', 'satisfactory'],
  ])(
    'finishes the test with %s: deleted with the verdict (its transcript kept), Normal mode, back to the Spark, verdict sent 0.5 s later',
    async (answer, message, verdict) => {
      localStorage.setItem(
        'chat_conversations',
        JSON.stringify({ s1: { sessionId: 'b1', sparkId: 's1', messages: [] } }),
      );
      client.post.mockResolvedValue({ ai: null, messages: [], sessionId: 'b1' });
      await openPage();
      fireEvent.click(screen.getByRole('button', { name: 'Finish test' }));
      const dialog = await screen.findByRole('dialog', { name: 'Was the test OK?' });
      const started = Date.now();
      fireEvent.click(within(dialog).getByRole('button', { name: answer }));

      await waitFor(() => expect(where()).toBe('/spark/s1'));
      expect(client.delete).toHaveBeenCalledWith('/sparks/s1/tests/t1', { params: { verdict } });
      expect(getChatMode()).toBe('Normal');
      expect(localStorage.getItem('chat_conversations')).toBeNull();
      expect(client.post).not.toHaveBeenCalled();

      await waitFor(() =>
        expect(client.post).toHaveBeenCalledWith('/sparks/s1/messages', { input: { text: message } }),
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(480);
      await waitFor(() => expect(where()).toMatch(/^\/spark\/s1\?refresh=\d+$/));
    },
  );

  it('opens the first test instead of one that is not there', async () => {
    renderAt('/spark/s1/test/gone');
    await waitFor(() => expect(where()).toBe('/spark/s1/test/t1'));
  });

  it('goes back to the Spark when it has no tests', async () => {
    tests = [];
    renderAt('/spark/s1/test/gone');
    await waitFor(() => expect(where()).toBe('/spark/s1'));
  });

  it('opens a test the cached list does not know yet without bouncing back to the Spark (issue 18 item 7)', async () => {
    // The list was cached before the builder made the test; the server has it.
    tests = [makeTest('t1', 'Test 1'), makeTest('t9', 'New one')];
    renderAt('/spark/s1/test/t9', [[['tests', 's1'], [makeTest('t1', 'Test 1')]]]);
    const nav = await screen.findByRole('navigation', { name: 'Tests of the Spark' });
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'New one' })).toHaveAttribute('aria-current', 'page'),
    );
    expect(where()).toBe('/spark/s1/test/t9');
    expect(JSON.parse(screen.getByTestId('chat-panel').dataset.target!)).toMatchObject({ testId: 't9' });
  });

  it("shows “Spark not found” inside the app for a Spark that is not the user's, and keeps the session (issue 18 item 8)", async () => {
    localStorage.setItem('activeSparkId', 's1');
    client.get.mockRejectedValue(new ApiError(404, [{ code: 'NOT_FOUND', message: 'Not found' }]));
    renderAt('/spark/s1/test/t1');
    expect(await screen.findByRole('heading', { name: 'Spark not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the chat' })).toHaveAttribute('href', '/');
    expect(client.endSession).not.toHaveBeenCalled();
    expect(localStorage.getItem('activeSparkId')).toBeNull();
    expect(where()).toBe('/spark/s1/test/t1');
  });

  it.each(['/spark/not-a-uuid/test/t1', '/mobile-test/not-a-uuid/t1'])(
    'shows the same “Spark not found” page for a mistyped Spark id, which the api answers 400 (%s)',
    async (path) => {
      await i18n.changeLanguage('es');
      client.get.mockRejectedValue(
        new ApiError(400, [{ code: 'VALIDATION', message: 'sparkId must be a UUID', field: 'sparkId' }]),
      );
      renderAt(path);
      expect(await screen.findByRole('heading', { level: 1, name: 'Spark no encontrado' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Volver al chat' })).toHaveAttribute('href', '/');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(client.endSession).not.toHaveBeenCalled();
      expect(where()).toBe(path);
    },
  );

  it('speaks Spanish', async () => {
    await i18n.changeLanguage('es');
    tests = ['a', 'b', 'c', 'd', 'e'].map((id, index) => makeTest(id, `Prueba ${index + 1}`));
    await openPage('/spark/s1/test/a');
    expect(screen.getByRole('button', { name: 'Reiniciar prueba' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Añadir una prueba' }));
    expect(await screen.findByRole('dialog', { name: 'Límite de pruebas alcanzado' })).toHaveTextContent(
      'No puedes añadir más de 5 pruebas',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Entendido' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Terminar prueba' }));
    const dialog = await screen.findByRole('dialog', { name: '¿La prueba ha ido bien?' });
    expect(within(dialog).getByRole('button', { name: 'Sí' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'No' })).toBeInTheDocument();
  });
});

describe('MobileTestPage', () => {
  it('shows the test chat in the phone frame with the test name and a way back', async () => {
    renderAt('/mobile-test/s1/t2');
    await screen.findByTestId('chat-panel');
    const frame = screen.getByRole('region', { name: 'Phone preview' });
    expect(within(frame).getByRole('heading', { level: 1 })).toHaveTextContent('Opening hours on Sunday');
    expect(within(frame).getByRole('link', { name: 'Back to the test' })).toHaveAttribute('href', '/spark/s1/test/t2');
    expect(JSON.parse(screen.getByTestId('chat-panel').dataset.target!)).toMatchObject({ testId: 't2' });
  });

  it('opens the first test in the frame instead of one that is not there', async () => {
    renderAt('/mobile-test/s1/gone');
    await waitFor(() => expect(where()).toBe('/mobile-test/s1/t1'));
    await act(async () => {
      await Promise.resolve();
    });
  });
});
