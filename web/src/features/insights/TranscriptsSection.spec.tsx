import type { TranscriptSummary, TranscriptView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';

import { initTestI18n } from '../../testing/i18n';
import * as insightsApi from './api';
import type { TranscriptConversation } from './TranscriptReader';
import { TranscriptsSection } from './TranscriptsSection';

jest.mock('./api', () => {
  const actual = jest.requireActual<typeof import('./api')>('./api');
  return { ...actual, fetchTranscripts: jest.fn(), fetchTranscript: jest.fn(), deleteTranscript: jest.fn() };
});
const api = jest.mocked(insightsApi);

const summaries: TranscriptSummary[] = [
  {
    conversationId: 'c2',
    title: 'Prices',
    verdict: 'unsatisfactory',
    judgedAt: '2026-11-29T10:00:00.000Z',
    questions: 2,
  },
  { conversationId: 'c1', title: 'Hours', verdict: 'satisfactory', judgedAt: '2026-11-28T09:00:00.000Z', questions: 1 },
];
const transcript = (summary: TranscriptSummary): TranscriptView => ({
  conversationId: summary.conversationId,
  title: summary.title,
  verdict: summary.verdict,
  judgedAt: summary.judgedAt,
  messages: [
    { _id: 'h1', type: 'human', data: { content: 'How much is a bike?' }, createdAt: summary.judgedAt },
    { _id: 'a1', type: 'ai', data: { content: 'It costs 45 dollars.', answer: 'answer' }, createdAt: summary.judgedAt },
  ],
});

/** Stands for the chat's messages (features/chat), handed down by the page. */
const Conversation: TranscriptConversation = ({ sparkId, transcript: shown }) => (
  <ol aria-label="conversation">
    {shown.messages.map((m) => (
      <li key={m._id}>
        {sparkId}: {m.data.content}
      </li>
    ))}
  </ol>
);

function renderSection(onSaid = jest.fn()) {
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <TranscriptsSection sparkId="s1" Conversation={Conversation} onSaid={onSaid} />
    </SWRConfig>,
  );
  return { onSaid };
}

beforeEach(() => {
  jest.resetAllMocks();
  api.fetchTranscripts.mockResolvedValue(summaries);
  api.fetchTranscript.mockImplementation((_sparkId, id) =>
    Promise.resolve(transcript(summaries.find((s) => s.conversationId === id) ?? summaries[0])),
  );
  api.deleteTranscript.mockResolvedValue({ deleted: true });
});

describe('TranscriptsSection (issue 35 item 2)', () => {
  beforeAll(() => initTestI18n('en'));

  it('lists the judged tests, newest first: name, verdict, when and how many questions', async () => {
    renderSection();
    expect(screen.getByRole('heading', { name: 'Judged tests' })).toBeInTheDocument();
    const items = await screen.findAllByTestId('transcript');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Prices Did not go well Judged .+ · 2 questions$/),
      expect.stringMatching(/^Hours Went well Judged .+ · 1 question$/),
    ]);
    expect(screen.getByText(/The 20 newest are kept/)).toBeInTheDocument();
    expect(api.fetchTranscripts).toHaveBeenCalledWith('s1');
  });

  it('says when there is none yet', async () => {
    api.fetchTranscripts.mockResolvedValue([]);
    renderSection();
    expect(await screen.findByText(/No judged tests yet/)).toBeInTheDocument();
  });

  it('opens one to read (its heading takes the focus) and goes back to it in the list', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: /^Prices/ }));
    const heading = await screen.findByRole('heading', { name: 'Prices', level: 4 });
    expect(heading).toHaveFocus();
    expect(screen.getByText('Did not go well')).toBeInTheDocument();
    const conversation = await screen.findByRole('list', { name: 'conversation' });
    expect(within(conversation).getByText('s1: It costs 45 dollars.')).toBeInTheDocument();
    expect(api.fetchTranscript).toHaveBeenCalledWith('s1', 'c2');
    expect(screen.queryByTestId('transcript')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Back to the judged tests' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /^Prices/ })).toHaveFocus());
  });

  it('deletes one once confirmed: the list loses it and the panel says so', async () => {
    const { onSaid } = renderSection();
    fireEvent.click(await screen.findByRole('button', { name: /^Hours/ }));
    await screen.findByRole('list', { name: 'conversation' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete the conversation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this conversation?' });
    expect(dialog).toHaveTextContent('What was said in “Hours” will be gone for good.');
    api.fetchTranscripts.mockResolvedValue([summaries[0]]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await Promise.resolve();
    });
    expect(api.deleteTranscript).toHaveBeenCalledWith('s1', 'c1');
    await waitFor(() => expect(onSaid).toHaveBeenCalledWith('Conversation deleted.'));
    await waitFor(() => expect(screen.getAllByTestId('transcript')).toHaveLength(1));
    expect(screen.getByRole('heading', { name: 'Judged tests' })).toHaveFocus();
  });

  it('a failed deletion keeps the dialog open and says why', async () => {
    api.deleteTranscript.mockRejectedValue(new Error('offline'));
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: /^Hours/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the conversation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this conversation?' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await Promise.resolve();
    });
    expect(await within(dialog).findByText('The conversation could not be deleted: offline')).toBeInTheDocument();
  });
});

describe('TranscriptsSection in Spanish', () => {
  beforeAll(() => initTestI18n('es'));

  it('reads in Spanish', async () => {
    renderSection();
    expect(screen.getByRole('heading', { name: 'Pruebas valoradas' })).toBeInTheDocument();
    const items = await screen.findAllByTestId('transcript');
    expect(items[0]).toHaveTextContent(/^Prices No ha ido bien Valorada el .+ · 2 preguntas$/);
    expect(items[1]).toHaveTextContent(/Ha ido bien .+ · 1 pregunta$/);
    fireEvent.click(screen.getByRole('button', { name: /^Prices/ }));
    expect(await screen.findByRole('button', { name: 'Volver a las pruebas valoradas' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Borrar la conversación' })).toBeInTheDocument();
  });
});
