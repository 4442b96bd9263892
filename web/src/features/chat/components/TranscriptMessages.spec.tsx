import type { TranscriptView } from '@sparks/contracts';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { SWRConfig } from 'swr';

import * as chatApi from '../api';
import { initChatTestI18n } from '../testing';
import { TranscriptMessages } from './TranscriptMessages';

jest.mock('../api', () => ({ rateTestAnswer: jest.fn(), keepAnswerAsCheck: jest.fn() }));
const api = jest.mocked(chatApi);

const at = '2026-11-29T10:00:00.000Z';
const transcript: TranscriptView = {
  conversationId: 'c1',
  title: 'Prices',
  verdict: 'unsatisfactory',
  judgedAt: at,
  messages: [
    { _id: 'g1', type: 'ai', data: { content: 'Hi! Ask me about **Northwind**.', answer: 'greeting' }, createdAt: at },
    { _id: 'h1', type: 'human', data: { content: 'How much is an electric bike?' }, createdAt: at },
    {
      _id: 'a1',
      type: 'ai',
      data: { content: 'Electric bikes cost **45 dollars** per day.', answer: 'answer' },
      createdAt: at,
      feedback: { rating: 'down', comment: 'It is 50 now.' },
    },
  ],
};

function renderMessages() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <TranscriptMessages sparkId="s1" transcript={transcript} />
    </SWRConfig>,
  );
}

const settled = (fire: () => void) =>
  act(async () => {
    fire();
    await Promise.resolve();
    await Promise.resolve();
  });

beforeEach(() => {
  jest.resetAllMocks();
  api.rateTestAnswer.mockImplementation((_sparkId, messageId, body) =>
    Promise.resolve({ messageId, rating: body.rating, comment: body.comment ?? null, ratedAt: at }),
  );
  api.keepAnswerAsCheck.mockResolvedValue({
    id: 'k1',
    question: 'How much is an electric bike?',
    expected: 'Electric bikes cost **45 dollars** per day.',
    origin: 'rating',
    status: 'pending',
    latest: null,
    checkedAt: null,
    createdAt: at,
  });
});

describe('TranscriptMessages (issue 35 item 2)', () => {
  beforeAll(() => initChatTestI18n('en'));

  it('shows what was said as the chat did, read-only: who said it, markdown, no composer', async () => {
    renderMessages();
    const list = screen.getByRole('list', { name: 'What was said in the test' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[1]).toHaveTextContent('You: How much is an electric bike?');
    expect((await within(items[2]).findByText('45 dollars')).tagName).toBe('STRONG');
    expect(items[2]).toHaveTextContent(/^Assistant: /);
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('only answers from the documents carry the thumbs, with the rating given before', () => {
    renderMessages();
    const groups = screen.getAllByRole('group', { name: 'Was this answer right?' });
    expect(groups).toHaveLength(1);
    expect(within(groups[0]).getByRole('button', { name: 'Wrong answer' })).toHaveAttribute('aria-pressed', 'true');
  });

  it("rates an answer through the test chat's route and keeps a right one as a check", async () => {
    renderMessages();
    await settled(() => fireEvent.click(screen.getByRole('button', { name: 'Right answer' })));
    expect(api.rateTestAnswer).toHaveBeenCalledWith('s1', 'a1', { rating: 'up' });
    expect(screen.getByRole('button', { name: 'Right answer' })).toHaveAttribute('aria-pressed', 'true');
    await settled(() => fireEvent.click(screen.getByRole('button', { name: 'Keep as a check' })));
    expect(api.keepAnswerAsCheck).toHaveBeenCalledWith('s1', 'a1');
    expect(screen.getByText(/Kept as a check/)).toBeInTheDocument();
  });
});

describe('TranscriptMessages in Spanish', () => {
  beforeAll(() => initChatTestI18n('es'));

  it('reads in Spanish', () => {
    renderMessages();
    const list = screen.getByRole('list', { name: 'Lo que se dijo en la prueba' });
    expect(within(list).getAllByRole('listitem')[1]).toHaveTextContent('Tú: How much is an electric bike?');
    expect(screen.getByRole('group', { name: '¿Era correcta esta respuesta?' })).toBeInTheDocument();
  });
});
