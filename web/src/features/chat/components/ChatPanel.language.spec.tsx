import { act, configure, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router-dom';

import * as chatApi from '../api';
import { SYSTEM_CONVERSATIONS_KEY } from '../storage';
import { initChatTestI18n } from '../testing';
import type { ChatMessage, ChatStreamEvent, ChatTarget } from '../types';
import { ChatPanel } from './ChatPanel';

jest.mock('../api');
jest.mock('../../account/useProfile', () => ({
  useProfile: () => ({ data: { tenants: [{ subscription: { productName: 'Free Plan' } }] } }),
}));

const api = jest.mocked(chatApi);

const message = (id: string, type: ChatMessage['type'], data: ChatMessage['data']): ChatMessage => ({
  _id: id,
  type,
  data,
  createdAt: '2025-01-01T10:00:00.000Z',
  replyTo: null,
});

/** The profile assistant's opening as the flow engine sends it in English: its question, card and options, with Spanish. */
const question = message('q', 'ai', {
  content: 'These are your details. What would you like to change?',
  i18n: { es: { content: 'Estos son tus datos. ¿Qué quieres cambiar?' } },
});
const card = message('c', 'action', {
  content: '',
  type: 'userCard',
  title: 'Your details',
  info: [
    { type: 'First name', result: 'Ana' },
    { type: 'Language', result: 'English' },
  ],
  i18n: {
    es: {
      title: 'Tus datos',
      info: [
        { type: 'Nombre', result: 'Ana' },
        { type: 'Idioma', result: 'Español' },
      ],
    },
  },
});
const options = message('o', 'action', {
  content: '',
  type: 'options',
  options: [
    { label: 'My language', value: 'language' },
    { label: "Nothing, it's fine", value: 'done' },
  ],
  i18n: {
    es: {
      options: [
        { label: 'Mi idioma', value: 'language' },
        { label: 'Nada, está bien así', value: 'done' },
      ],
    },
  },
});
/** Written by the model (no languages): it reads as it was written. */
const modelText = message('m', 'ai', { content: 'We open at 8.' });
/** A widget stored before widgets carried their languages: it reads as it was sent. */
const older = message('b', 'action', {
  content: '',
  type: 'buttons',
  buttons: [{ label: 'Choose a plan', goto: '/billing' }],
});

const PROFILE: ChatTarget = { kind: 'system', name: 'profile' };

configure({ asyncUtilTimeout: 5000 });

let i18n: I18n;
beforeAll(async () => {
  i18n = await initChatTestI18n('en');
});

beforeEach(async () => {
  localStorage.clear();
  jest.resetAllMocks();
  api.listTests.mockResolvedValue([]);
  await i18n.changeLanguage('en');
});

describe('ChatPanel after a language switch (issue 34 item 3)', () => {
  it('shows the live options and the profile card in the language the interface switched to, at once', async () => {
    api.loadHistory.mockResolvedValue({
      sessionId: 'c1',
      sparkId: null,
      messages: [modelText, older, question, card, options],
    });
    localStorage.setItem(SYSTEM_CONVERSATIONS_KEY, JSON.stringify({ profile: 'c1' }));
    const sent: string[] = [];
    api.streamChat.mockImplementation(({ text, onEvent }) => {
      sent.push(text);
      const events: ChatStreamEvent[] = [
        {
          type: 'history',
          messages: [modelText, older, question, card, options, message('h2', 'human', { content: text })],
          sessionId: 'c1',
          sparkId: null,
        },
        { type: 'done', replyTo: 'h', messages: [] },
      ];
      for (const event of events) onEvent(event);
      return Promise.resolve();
    });
    render(
      <MemoryRouter>
        <ChatPanel target={PROFILE} />
      </MemoryRouter>,
    );
    await screen.findByRole('button', { name: 'My language' });
    const details = screen.getByRole('region', { name: 'Your details' });
    expect(within(details).getByText('English')).toBeInTheDocument();

    await act(() => i18n.changeLanguage('es'));

    expect(screen.getByText('Estos son tus datos. ¿Qué quieres cambiar?')).toBeInTheDocument();
    expect(screen.queryByText('These are your details. What would you like to change?')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mi idioma' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Nada, está bien así' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'My language' })).not.toBeInTheDocument();
    const datos = screen.getByRole('region', { name: 'Tus datos' });
    expect(within(datos).getByText('Idioma')).toBeInTheDocument();
    expect(within(datos).getByText('Español')).toBeInTheDocument();
    expect(within(datos).queryByText('English')).not.toBeInTheDocument();
    // A widget stored without its languages, and the model's words, read as they were written.
    expect(screen.getByRole('button', { name: 'Choose a plan' })).toBeInTheDocument();
    expect(screen.getByText('We open at 8.')).toBeInTheDocument();

    // What is sent does not depend on the language shown; the answer reads in Spanish too.
    fireEvent.click(screen.getByRole('button', { name: 'Mi idioma' }));
    await screen.findByText('Mi idioma', { selector: '.chat-bubble--human' });
    expect(sent).toContain('language');

    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByText('My language', { selector: '.chat-bubble--human' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your details' })).toBeInTheDocument();
  });
});
