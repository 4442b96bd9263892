import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { ApiError } from '../../../api/client';
import { billingDialogs } from '../../account/billingDialogs';
import * as chatApi from '../api';
import { SYSTEM_CONVERSATIONS_KEY } from '../storage';
import { initChatTestI18n } from '../testing';
import type { ChatMessage, ChatStreamEvent, ChatTarget } from '../types';
import { ChatPanel } from './ChatPanel';
import { useChatActions } from './chatActions';

jest.mock('../api');
jest.mock('../../account/useProfile', () => ({
  useProfile: () => ({ data: { tenants: [{ subscription: { productName: mockPlan.name } }] } }),
}));
const mockPlan = { name: 'Free Plan' };

const api = jest.mocked(chatApi);
const OLD = '2025-01-01T10:00:00.000Z';

const message = (id: string, type: ChatMessage['type'], data: ChatMessage['data']): ChatMessage => ({
  _id: id,
  type,
  data,
  createdAt: OLD,
  replyTo: null,
});

/** A server whose stream answers `reply(text)` after the history. */
function server(reply: (text: string) => ChatStreamEvent[] | Error) {
  const sent: Array<{ text: string; sessionId: string | null }> = [];
  api.streamChat.mockImplementation(({ text, sessionId, onEvent }) => {
    sent.push({ text, sessionId });
    const events = reply(text);
    if (events instanceof Error) return Promise.reject(events);
    for (const event of events) onEvent(event);
    return Promise.resolve();
  });
  return sent;
}

const history = (...messages: ChatMessage[]): ChatStreamEvent => ({
  type: 'history',
  messages,
  sessionId: 'c1',
  sparkId: null,
});
const done = (...messages: ChatMessage[]): ChatStreamEvent => ({ type: 'done', replyTo: 'h', messages });

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderPanel(target: ChatTarget, props: Partial<Parameters<typeof ChatPanel>[0]> = {}) {
  return render(
    <MemoryRouter initialEntries={['/here']}>
      <Routes>
        <Route path="*" element={<ChatPanel target={target} {...props} />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

// A cold transform of the lazily loaded markdown renderer can take a while.
configure({ asyncUtilTimeout: 5000 });

let i18n: I18n;
beforeAll(async () => {
  i18n = await initChatTestI18n('en');
  await import('../../../ui/Markdown');
});

beforeEach(async () => {
  localStorage.clear();
  jest.resetAllMocks();
  mockPlan.name = 'Free Plan';
  api.loadHistory.mockResolvedValue(null);
  api.listTests.mockResolvedValue([]);
  await i18n.changeLanguage('en');
});

const MAIN: ChatTarget = { kind: 'system', name: 'main' };
const box = () => screen.getByRole('textbox', { name: 'Message' });
const sendButton = () => screen.getByRole('button', { name: 'Send' });

describe('ChatPanel', () => {
  it('starts an empty conversation with the hidden "inicio", shows the reply and keeps the conversation id', async () => {
    const onMessages = jest.fn();
    const sent = server(() => [
      history(message('h', 'human', { content: 'inicio' })),
      { type: 'message', replyTo: 'h', message: message('a1', 'ai', { content: 'Hi **Ana**!' }) },
      done(
        message('a1', 'ai', { content: 'Hi **Ana**!' }),
        message('a2', 'action', {
          content: '',
          type: 'buttons',
          buttons: [{ label: 'Create a Spark', goto: '/new-spark' }],
        }),
      ),
    ]);
    renderPanel(MAIN, { autoStart: true, onMessages });

    const log = screen.getByRole('log');
    expect(log).toHaveAttribute('aria-live', 'polite');
    expect(await within(log).findByText('Ana')).toBeInTheDocument();
    expect(sent).toEqual([{ text: 'inicio', sessionId: null }]);
    expect(within(log).queryByText('inicio')).toBeNull();
    expect(onMessages).toHaveBeenCalled();
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(SYSTEM_CONVERSATIONS_KEY)!)).toMatchObject({ main: { sessionId: 'c1' } }),
    );

    fireEvent.click(within(log).getByRole('button', { name: 'Create a Spark' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/new-spark');
  });

  it('resumes a stored conversation without starting it again', async () => {
    localStorage.setItem(SYSTEM_CONVERSATIONS_KEY, JSON.stringify({ main: 'c-old' }));
    api.loadHistory.mockResolvedValue({
      sessionId: 'c-old',
      sparkId: null,
      messages: [message('x', 'human', { content: 'inicio' }), message('y', 'ai', { content: 'Welcome back' })],
    });
    const sent = server(() => []);
    renderPanel(MAIN, { autoStart: true });
    expect(await screen.findByText('Welcome back')).toBeInTheDocument();
    expect(api.loadHistory).toHaveBeenCalledWith(MAIN, 'c-old');
    expect(sent).toEqual([]);
  });

  it('drops a stored id the server no longer knows and starts a new conversation', async () => {
    localStorage.setItem(SYSTEM_CONVERSATIONS_KEY, JSON.stringify({ main: 'gone' }));
    api.loadHistory.mockImplementation((_target, id) =>
      id ? Promise.reject(new ApiError(404, [{ code: 'NOT_FOUND', message: 'Not found' }])) : Promise.resolve(null),
    );
    const sent = server(() => [history(message('h', 'human', { content: 'inicio' })), done()]);
    renderPanel(MAIN, { autoStart: true });
    await waitFor(() => expect(sent).toEqual([{ text: 'inicio', sessionId: null }]));
  });

  it('sends with Enter, not with Shift+Enter, and never blank text', async () => {
    const sent = server((text) => [history(message('h', 'human', { content: text })), done()]);
    renderPanel(MAIN);
    await waitFor(() => expect(box()).toBeEnabled());
    expect(sendButton()).toBeDisabled();

    fireEvent.change(box(), { target: { value: '   ' } });
    expect(sendButton()).toBeDisabled();
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(sent).toEqual([]);

    fireEvent.change(box(), { target: { value: 'Line one' } });
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    expect(sent).toEqual([]);

    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(await screen.findByText('Line one')).toBeInTheDocument();
    expect(sent).toEqual([{ text: 'Line one', sessionId: null }]);
    expect(box()).toHaveValue('');
  });

  it('takes a message while a greeting is still being revealed: the rest of the greeting shows at once, then it', async () => {
    const fresh = (id: string, content: string): ChatMessage => ({
      ...message(id, 'ai', { content }),
      createdAt: new Date().toISOString(),
      replyTo: 'h',
    });
    const sent = server((text) =>
      text === 'inicio'
        ? [
            history(message('h', 'human', { content: 'inicio' })),
            done(fresh('g1', 'Welcome!'), fresh('g2', 'I can help with your Spark.'), fresh('g3', 'What do you need?')),
          ]
        : [history(message('h2', 'human', { content: text })), done()],
    );
    renderPanel(MAIN, { autoStart: true });
    const log = screen.getByRole('log');
    expect(await within(log).findByText('Welcome!')).toBeInTheDocument();
    // The greeting's next messages wait their turn (800 ms each), and the box already takes a message.
    expect(within(log).queryByText('What do you need?')).toBeNull();
    fireEvent.change(box(), { target: { value: 'Opening hours?' } });
    expect(sendButton()).toBeEnabled();
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(await within(log).findByText('Opening hours?')).toBeInTheDocument();
    expect(sent.map((s) => s.text)).toEqual(['inicio', 'Opening hours?']);
    const order = ['Welcome!', 'I can help with your Spark.', 'What do you need?', 'Opening hours?'].map((text) =>
      (log.textContent ?? '').indexOf(text),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('sends the value of an option and shows older widgets disabled', async () => {
    const options = message('o', 'action', {
      content: '',
      type: 'options',
      options: [
        { label: 'Sell products', value: 'sell' },
        { label: 'Handle bookings', value: 'bookings' },
      ],
    });
    api.loadHistory.mockResolvedValue({ sessionId: 'c1', sparkId: null, messages: [options] });
    localStorage.setItem(SYSTEM_CONVERSATIONS_KEY, JSON.stringify({ main: 'c1' }));
    const sent = server((text) => [history(options, message('h2', 'human', { content: text })), done()]);
    renderPanel(MAIN);
    fireEvent.click(await screen.findByRole('button', { name: 'Sell products' }));
    // The assistant gets the value; the person reads the label.
    await screen.findByText('Sell products', { selector: '.chat-bubble--human' });
    expect(sent).toEqual([{ text: 'sell', sessionId: 'c1' }]);
    expect(screen.getByRole('button', { name: 'Handle bookings' })).toBeDisabled();
  });

  it('sends palette and icon names, draws the icons inline', async () => {
    const palette = message('p', 'action', {
      content: '',
      type: 'colorPalette',
      palettes: [{ name: 'Ocean', primary: '#0b6bcb', secondary: '#e3f1ff' }],
    });
    api.loadHistory.mockResolvedValue({ sessionId: 'c1', sparkId: 's1', messages: [palette] });
    const sent = server(() => [
      history(palette),
      done(
        message('i', 'action', {
          content: '',
          type: 'iconSelector',
          icons: [
            { name: 'Robot', icon: 'robot' },
            { name: 'Heart', icon: 'heart' },
          ],
        }),
      ),
    ]);
    renderPanel({ kind: 'builder', sparkId: 's1' });
    fireEvent.click(await screen.findByRole('button', { name: 'Ocean' }));
    const robot = await screen.findByRole('button', { name: 'Robot' });
    expect(robot.querySelector('svg[data-icon="robot"]')).not.toBeNull();
    fireEvent.click(robot);
    await waitFor(() => expect(sent.map((s) => s.text)).toEqual(['Ocean', 'Robot']));
  });

  it('marks the answer given to each widget, disables the rest, and draws the icons in the chosen palette (issue 18 item 5)', async () => {
    const tone = message('t', 'action', {
      content: '',
      type: 'options',
      options: [
        { label: 'Friendly', value: 'friendly' },
        { label: 'Professional', value: 'professional' },
      ],
    });
    const palette = message('p', 'action', {
      content: '',
      type: 'colorPalette',
      palettes: [
        { name: 'Ocean', primary: '#0b6bcb', secondary: '#e3f1ff' },
        { name: 'Forest', primary: '#1f7a4d', secondary: '#e4f5ea' },
      ],
    });
    const icons = message('i', 'action', {
      content: '',
      type: 'iconSelector',
      icons: [
        { name: 'Robot', icon: 'robot' },
        { name: 'Heart', icon: 'heart' },
      ],
      palette: { primary: '#1f7a4d', secondary: '#e4f5ea' },
    });
    api.loadHistory.mockResolvedValue({
      sessionId: 'c1',
      sparkId: 's1',
      messages: [
        tone,
        message('h1', 'human', { content: 'friendly' }),
        message('a1', 'ai', { content: 'Instructions written.' }),
        palette,
        message('h2', 'human', { content: 'Forest' }),
        icons,
      ],
    });
    renderPanel({ kind: 'builder', sparkId: 's1' });

    const friendly = await screen.findByRole('button', { name: 'Friendly', pressed: true });
    expect(friendly).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Professional', pressed: false })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Forest', pressed: true })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Ocean', pressed: false })).toBeDisabled();
    // The icons are still to be picked: usable, nothing marked, in the Forest colours.
    const robot = screen.getByRole('button', { name: 'Robot' });
    expect(robot).toBeEnabled();
    expect(robot).not.toHaveAttribute('aria-pressed');
    const group = screen.getByRole('group', { name: 'Icons' });
    expect(group.style.getPropertyValue('--icon-primary')).toBe('#1f7a4d');
    expect(group.style.getPropertyValue('--icon-secondary')).toBe('#e4f5ea');
  });

  it('shows the no-tests dialog for a goto to a test when the Spark has none', async () => {
    const buttons = message('b', 'action', {
      content: '',
      type: 'buttons',
      buttons: [{ label: 'Open the test', goto: '/spark/s1/test/t1' }],
    });
    api.loadHistory.mockResolvedValue({ sessionId: 'c1', sparkId: 's1', messages: [buttons] });
    renderPanel({ kind: 'builder', sparkId: 's1' });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the test' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'No tests available!' });
    expect(api.listTests).toHaveBeenCalledWith('s1');
    expect(screen.getByTestId('where')).toHaveTextContent('/here');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Understood' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('opens the upgrade prompt on a 402 and the generic error otherwise, logging "Failed to send message"', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer: Error = new ApiError(402, [{ code: 'PLAN_LIMIT', message: 'Limit' }]);
    server(() => answer);
    renderPanel(MAIN);
    await waitFor(() => expect(box()).toBeEnabled());

    fireEvent.change(box(), { target: { value: 'Hola' } });
    fireEvent.click(sendButton());
    const upgrade = await screen.findByRole('dialog', { name: 'Upgrade your plan' });
    expect(screen.getByDisplayValue('Hola')).toBeInTheDocument(); // not stored: the text comes back
    fireEvent.click(within(upgrade).getByRole('button', { name: 'View plans' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/here?showPlans=true');

    answer = new ApiError(503, [{ code: 'ASSISTANT_UNAVAILABLE', message: 'The assistant is not available' }]);
    fireEvent.click(sendButton());
    const error = await screen.findByRole('alertdialog', { name: 'Error' });
    expect(error).toHaveTextContent('The assistant is not available');
    expect(within(error).getByRole('button', { name: 'Understood' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Failed to send message', expect.anything());
    fireEvent.click(within(error).getByRole('button', { name: 'Understood' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    errors.mockRestore();
  });

  it('on 402 OUT_OF_INTERACTIONS offers to buy more (the credit packs); on 402 TRIAL_ENDED hands over to the trial-ended popup', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    billingDialogs.reset();
    let answer: Error = new ApiError(402, [{ code: 'OUT_OF_INTERACTIONS', message: 'Out' }]);
    server(() => answer);
    renderPanel(MAIN);
    await waitFor(() => expect(box()).toBeEnabled());

    fireEvent.change(box(), { target: { value: 'Hola' } });
    fireEvent.click(sendButton());
    // The buy-more-interactions prompt (docs/product.md §2): its own dialog, not the out-of-interactions modal.
    const out = await screen.findByRole('dialog', { name: 'Buy more interactions?' });
    expect(out).toHaveTextContent('This Spark could not answer');
    expect(screen.queryByRole('dialog', { name: 'You are out of interactions' })).toBeNull();
    expect(within(out).getByRole('button', { name: 'View plans' })).toBeInTheDocument();
    expect(billingDialogs.get()).toEqual({ open: null, had402: true, outAnswered: false });
    fireEvent.click(within(out).getByRole('button', { name: 'Buy more interactions' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(billingDialogs.get().open).toBe('credits');

    billingDialogs.reset();
    answer = new ApiError(402, [{ code: 'TRIAL_ENDED', message: 'Trial ended' }]);
    fireEvent.click(sendButton());
    await waitFor(() => expect(billingDialogs.get().open).toBe('trialEnded'));
    // The account's popup says it; the chat opens no dialog of its own.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    billingDialogs.reset();
    errors.mockRestore();
  });

  it('shows an error event of the stream in the generic dialog', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server((text) => [
      history(message('h', 'human', { content: text })),
      { type: 'error', replyTo: 'h', code: 'REPLY_TIMEOUT', message: 'The reply took too long' },
    ]);
    renderPanel(MAIN);
    await waitFor(() => expect(box()).toBeEnabled());
    fireEvent.change(box(), { target: { value: 'Hola' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(await screen.findByRole('alertdialog', { name: 'Error' })).toHaveTextContent('The reply took too long');
    expect(errors).toHaveBeenCalledWith('Failed to send message', 'REPLY_TIMEOUT');
    fireEvent.click(screen.getByRole('button', { name: 'Understood' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    errors.mockRestore();
  });

  it('lets content inside the panel send (the welcome bubble’s question)', async () => {
    const sent = server((text) => [history(message('h', 'human', { content: text })), done()]);
    function Ask() {
      const { send } = useChatActions();
      return (
        <button type="button" onClick={() => void send('I have a question')}>
          Ask
        </button>
      );
    }
    renderPanel(MAIN, { welcome: <Ask /> });
    await waitFor(() => expect(box()).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await waitFor(() => expect(sent).toEqual([{ text: 'I have a question', sessionId: null }]));
  });

  describe('upload', () => {
    const builder: ChatTarget = { kind: 'builder', sparkId: 's1' };
    const input = () => screen.getByTestId('chat-file-input');
    const pdf = (name: string, size: number, body = '%PDF-1.7\n') => {
      const file = new File([body], name, { type: 'application/pdf' });
      Object.defineProperty(file, 'size', { value: size });
      return file;
    };

    beforeEach(() => {
      api.loadHistory.mockResolvedValue({ sessionId: 'b1', sparkId: 's1', messages: [] });
    });

    it('offers "Add files", and "Connect document-sharing" only on the zaphire plan', async () => {
      renderPanel(builder);
      fireEvent.click(await screen.findByRole('button', { name: 'Attach a file' }));
      expect(await screen.findByRole('menuitem', { name: 'Add files' })).toBeInTheDocument();
      expect(screen.queryByRole('menuitem', { name: /Connect document-sharing/ })).toBeNull();
    });

    it('on zaphire (any case) opens the sign-in address in a new tab', async () => {
      mockPlan.name = 'ZAPHIRE';
      const target: ChatTarget = { kind: 'builder', sparkId: 'spark-configured' };
      api.getIntegrations.mockResolvedValue({ configured: { microsoft: true }, connections: [] });
      api.authorizeIntegration.mockResolvedValue({ authUrl: 'https://login.example/authorize?state=s' });
      const tab = { opener: {} as unknown, location: { href: 'about:blank' }, close: jest.fn() };
      const open = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
      renderPanel(target);
      fireEvent.click(await screen.findByRole('button', { name: 'Attach a file' }));
      const connect = await screen.findByRole('menuitem', { name: /Connect document-sharing/ });
      await waitFor(() => expect(connect).not.toHaveAttribute('aria-disabled'));
      fireEvent.click(connect);
      expect(open).toHaveBeenCalledWith('about:blank', '_blank');
      await waitFor(() => expect(tab.location.href).toBe('https://login.example/authorize?state=s'));
      expect(tab.opener).toBeNull();
      expect(api.authorizeIntegration).toHaveBeenCalledWith('spark-configured');
      open.mockRestore();
    });

    it('says when document sharing is not set up on this server, and a failed connect is only logged', async () => {
      mockPlan.name = 'zaphire';
      api.getIntegrations.mockResolvedValue({ configured: { microsoft: false }, connections: [] });
      renderPanel({ kind: 'builder', sparkId: 'spark-not-configured' });
      fireEvent.click(await screen.findByRole('button', { name: 'Attach a file' }));
      const connect = await screen.findByRole('menuitem', { name: /Connect document-sharing/ });
      await waitFor(() => expect(connect).toHaveTextContent('Not set up on this server'));
      expect(connect).toHaveAttribute('aria-disabled', 'true');
    });

    it('a failed connect closes the tab and is only logged', async () => {
      mockPlan.name = 'Zaphire';
      const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      api.getIntegrations.mockResolvedValue({ configured: { microsoft: true }, connections: [] });
      api.authorizeIntegration.mockRejectedValue(
        new ApiError(503, [{ code: 'MICROSOFT_NOT_CONFIGURED', message: 'x' }]),
      );
      const tab = { opener: {} as unknown, location: { href: 'about:blank' }, close: jest.fn() };
      const open = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
      renderPanel({ kind: 'builder', sparkId: 'spark-failing' });
      fireEvent.click(await screen.findByRole('button', { name: 'Attach a file' }));
      const connect = await screen.findByRole('menuitem', { name: /Connect document-sharing/ });
      await waitFor(() => expect(connect).not.toHaveAttribute('aria-disabled'));
      fireEvent.click(connect);
      await waitFor(() => expect(tab.close).toHaveBeenCalled());
      expect(error).toHaveBeenCalledWith('Connecting document sharing failed', expect.any(ApiError));
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(screen.queryByRole('dialog')).toBeNull();
      open.mockRestore();
      error.mockRestore();
    });

    it('keeps the focus on its way from the attach menu through a dialog and back to the attach button', async () => {
      renderPanel(builder);
      await waitFor(() => expect(box()).toBeEnabled());
      const chooser = jest.spyOn(input(), 'click');
      const attach = screen.getByRole('button', { name: 'Attach a file' });
      attach.focus();
      fireEvent.keyDown(attach, { key: 'Enter' });
      const addFiles = await screen.findByRole('menuitem', { name: 'Add files' });
      await waitFor(() => expect(addFiles).toHaveAttribute('data-focus'));
      fireEvent.keyDown(screen.getByRole('menu'), { key: 'Enter' });
      expect(chooser).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      await waitFor(() => expect(screen.getByRole('button', { name: 'Attach a file' })).toHaveFocus());

      const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.pdf', { type: 'application/pdf' });
      fireEvent.change(input(), { target: { files: [png] } });
      const dialog = await screen.findByRole('alertdialog', { name: 'Incorrect format' });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Understood' })).toHaveFocus());
      fireEvent.click(within(dialog).getByRole('button', { name: 'Understood' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      await waitFor(() => expect(screen.getByRole('button', { name: 'Attach a file' })).toHaveFocus());
    });

    it('has no attach control without a Spark', async () => {
      api.loadHistory.mockResolvedValue(null);
      renderPanel(MAIN);
      await waitFor(() => expect(box()).toBeEnabled());
      expect(screen.queryByRole('button', { name: 'Attach a file' })).toBeNull();
    });

    it('refuses a file that is not a PDF with "Incorrect format"', async () => {
      renderPanel(builder);
      await waitFor(() => expect(box()).toBeEnabled());
      const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.pdf', { type: 'application/pdf' });
      fireEvent.change(input(), { target: { files: [png] } });
      const dialog = await screen.findByRole('alertdialog', { name: 'Incorrect format' });
      expect(dialog).toHaveTextContent('Please upload a PDF, a Word document (.docx) or a text file (.txt, .md).');
      expect(api.uploadDocument).not.toHaveBeenCalled();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Understood' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    });

    it('refuses a PDF over 10 MB with its size in MB, two decimals', async () => {
      renderPanel(builder);
      await waitFor(() => expect(box()).toBeEnabled());
      fireEvent.change(input(), { target: { files: [pdf('big.pdf', 12_950_000)] } });
      const dialog = await screen.findByRole('alertdialog', { name: 'The file is too large!' });
      expect(dialog).toHaveTextContent('The file must be smaller than 10MB. Your file is 12.35 MB.');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Understood' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    });

    it('asks to confirm, uploads into the conversation, waits for the reading, reloads and lets the builder go on', async () => {
      api.uploadDocument.mockResolvedValue({
        _id: 'd1',
        bucketFileId: 'f1',
        name: 'menu.pdf',
        status: 'pending',
        duplicate: false,
      });
      api.listDocuments.mockResolvedValue([{ _id: 'd1', status: 'completed' } as never]);
      const sent = server(() => [done()]);
      const onMessages = jest.fn();
      renderPanel(builder, { onMessages });
      await waitFor(() => expect(box()).toBeEnabled());
      const file = pdf('menu.pdf', 2048);
      fireEvent.change(input(), { target: { files: [file] } });
      const confirm = await screen.findByRole('dialog', { name: 'Upload this document?' });
      api.loadHistory.mockResolvedValue({
        sessionId: 'b1',
        sparkId: 's1',
        messages: [
          message('u', 'human', { content: '', type: 'document', name: 'menu.pdf', documentId: 'd1' }),
          message('r', 'ai', { content: 'I read **2 pages** of menu.pdf', type: 'document', documentId: 'd1' }),
        ],
      });
      jest.useFakeTimers();
      try {
        fireEvent.click(within(confirm).getByRole('button', { name: 'Accept' }));
        await act(async () => {
          await jest.advanceTimersByTimeAsync(2000);
        });
      } finally {
        jest.useRealTimers();
      }
      expect(api.uploadDocument).toHaveBeenCalledWith(file, 's1', 'b1');
      expect(await screen.findByText('You uploaded menu.pdf', { selector: '[aria-hidden]' })).toBeInTheDocument();
      expect(await screen.findByText('2 pages')).toBeInTheDocument();
      expect(api.listDocuments).toHaveBeenCalledWith('s1');
      expect(onMessages).toHaveBeenCalled();
      // The builder goes on by itself once the document is read (issue 18 item 3): the hidden start keyword.
      await waitFor(() => expect(sent.map((s) => s.text)).toEqual(['inicio']));
    });

    it('shows the document-limit dialog on a 402 with a view-plans button', async () => {
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      api.uploadDocument.mockRejectedValue(new ApiError(402, [{ code: 'DOCUMENT_LIMIT', message: 'Limit' }]));
      renderPanel(builder);
      await waitFor(() => expect(box()).toBeEnabled());
      fireEvent.change(input(), { target: { files: [pdf('menu.pdf', 2048)] } });
      fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Accept' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Document limit reached!' });
      expect(dialog).toHaveTextContent(
        'For the moment, you cannot upload more documents. Would you like to upgrade your plan?',
      );
      fireEvent.click(within(dialog).getByRole('button', { name: 'View plans' }));
      expect(screen.getByTestId('where')).toHaveTextContent('/here?showPlans=true');
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      jest.mocked(console.error).mockRestore();
    });

    it('opens the document-limit dialog when the plan refuses a file picked in the SharePoint browser', async () => {
      api.loadHistory.mockResolvedValue({ sessionId: 'b1', sparkId: 's-pick', messages: [] });
      const sent = server((text) => [
        history(message('h', 'human', { content: text })),
        done(
          message('a1', 'ai', { content: 'Your plan allows 3 documents, and this Spark has them all.' }),
          message('e1', 'action', { content: '', type: 'event', event: 'documentLimit', limit: 3 }),
        ),
      ]);
      renderPanel({ kind: 'builder', sparkId: 's-pick' });
      await waitFor(() => expect(box()).toBeEnabled());
      fireEvent.change(box(), { target: { value: '2' } });
      fireEvent.click(sendButton());
      const dialog = await screen.findByRole('alertdialog', { name: 'Document limit reached!' });
      expect(sent.map((s) => s.text)).toEqual(['2']);
      expect(dialog).toHaveTextContent(
        'For the moment, you cannot upload more documents. Would you like to upgrade your plan?',
      );
      expect(api.uploadDocument).not.toHaveBeenCalled();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    });

    describe('disconnecting document sharing', () => {
      const connected = (service: 'sharepoint' | 'onedrive') => ({
        configured: { microsoft: true },
        connections: [{ provider: 'microsoft' as const, service, connectedAt: OLD }],
      });
      const openMenu = async () => {
        fireEvent.click(await screen.findByRole('button', { name: 'Attach a file' }));
        await screen.findByRole('menuitem', { name: 'Add files' });
      };

      beforeEach(() => {
        mockPlan.name = 'Zaphire';
      });

      it('offers "Disconnect <service>" only when connected, asks first, then disconnects and offers connecting again', async () => {
        const target: ChatTarget = { kind: 'builder', sparkId: 'spark-connected' };
        api.getIntegrations.mockResolvedValue(connected('onedrive'));
        api.disconnectIntegration.mockResolvedValue({ provider: 'microsoft', disconnected: true });
        renderPanel(target);
        await openMenu();
        fireEvent.click(await screen.findByRole('menuitem', { name: 'Disconnect OneDrive' }));
        // A confirmation first; Cancel changes nothing.
        let dialog = await screen.findByRole('alertdialog', { name: 'Disconnect OneDrive?' });
        expect(dialog).toHaveTextContent(
          'This Spark will stop following its files in OneDrive, and the access you gave it is forgotten. ' +
            'The documents already added stay.',
        );
        fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
        await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
        expect(api.disconnectIntegration).not.toHaveBeenCalled();

        await openMenu();
        fireEvent.click(await screen.findByRole('menuitem', { name: 'Disconnect OneDrive' }));
        dialog = await screen.findByRole('alertdialog', { name: 'Disconnect OneDrive?' });
        api.getIntegrations.mockResolvedValue({ configured: { microsoft: true }, connections: [] });
        fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
        await waitFor(() => expect(api.disconnectIntegration).toHaveBeenCalledWith('spark-connected'));
        await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
        await waitFor(() => expect(api.getIntegrations).toHaveBeenCalledTimes(2));
        await openMenu();
        expect(await screen.findByRole('menuitem', { name: /Connect document-sharing/ })).toBeInTheDocument();
        expect(screen.queryByRole('menuitem', { name: /Disconnect/ })).toBeNull();
      });

      it('is in Spanish for a Spanish user, and a failed disconnect says so', async () => {
        await i18n.changeLanguage('es');
        const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
        api.getIntegrations.mockResolvedValue(connected('sharepoint'));
        api.disconnectIntegration.mockRejectedValue(new ApiError(undefined, [{ code: 'NETWORK_ERROR', message: 'x' }]));
        renderPanel({ kind: 'builder', sparkId: 'spark-connected-es' });
        fireEvent.click(await screen.findByRole('button', { name: 'Adjuntar un archivo' }));
        fireEvent.click(await screen.findByRole('menuitem', { name: 'Desconectar SharePoint' }));
        const dialog = await screen.findByRole('alertdialog', { name: '¿Desconectar SharePoint?' });
        expect(dialog).toHaveTextContent('Este Spark dejará de seguir sus archivos de SharePoint');
        expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
        fireEvent.click(within(dialog).getByRole('button', { name: 'Desconectar' }));
        const failed = await screen.findByRole('alertdialog', { name: 'Error' });
        expect(failed).toHaveTextContent('Algo ha fallado. Inténtalo de nuevo.');
        expect(error).toHaveBeenCalledWith('Disconnecting document sharing failed', expect.any(ApiError));
        error.mockRestore();
      });
    });
  });
});
