import type { AnswerFeedbackRequest, AnswerFeedbackView } from '@sparks/contracts';
import { act, fireEvent, render, screen } from '@testing-library/react';

import { initChatTestI18n } from '../testing';
import type { ChatMessage } from '../types';
import { AnswerRating, isRateable } from './AnswerRating';

beforeAll(() => initChatTestI18n('en'));

const answer = (extra: Partial<ChatMessage> = {}, data: Record<string, unknown> = {}): ChatMessage => ({
  _id: 'm1',
  type: 'ai',
  data: { content: 'Rentals cost 25 dollars.', answer: 'answer', ...data },
  createdAt: new Date().toISOString(),
  ...extra,
});

function setup(message = answer(), fail = false) {
  const onRate = jest.fn<Promise<AnswerFeedbackView>, [string, AnswerFeedbackRequest]>((messageId, body) =>
    fail
      ? Promise.reject(new Error('offline'))
      : Promise.resolve({
          messageId,
          rating: body.rating,
          comment: body.comment ?? null,
          ratedAt: new Date().toISOString(),
        }),
  );
  render(<AnswerRating message={message} onRate={onRate} />);
  return { onRate };
}

const settled = (fire: () => void) =>
  act(async () => {
    fire();
    await Promise.resolve();
    await Promise.resolve();
  });

const up = () => screen.getByRole('button', { name: 'Right answer' });
const down = () => screen.getByRole('button', { name: 'Wrong answer' });

describe('AnswerRating (issue 35 item 1)', () => {
  it('only answers from the documents (or not covered) can be rated', () => {
    expect(isRateable(answer())).toBe(true);
    expect(isRateable(answer({}, { answer: 'notCovered' }))).toBe(true);
    expect(isRateable(answer({}, { answer: undefined }))).toBe(false);
    expect(isRateable(answer({}, { answer: 'greeting' }))).toBe(false);
    expect(isRateable(answer({}, { type: 'error', answer: 'error' }))).toBe(false);
    expect(isRateable(answer({ type: 'human' }))).toBe(false);
  });

  it('rates up, then down with a comment: each replaces the last, and the buttons say which is chosen', async () => {
    const { onRate } = setup();
    expect(up()).toHaveAttribute('aria-pressed', 'false');
    await settled(() => fireEvent.click(up()));
    expect(onRate).toHaveBeenLastCalledWith('m1', { rating: 'up' });
    expect(up()).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Thanks: marked as a right answer.');
    expect(screen.queryByRole('textbox')).toBeNull();

    await settled(() => fireEvent.click(down()));
    expect(onRate).toHaveBeenLastCalledWith('m1', { rating: 'down' });
    expect(down()).toHaveAttribute('aria-pressed', 'true');
    expect(up()).toHaveAttribute('aria-pressed', 'false');
    const box = screen.getByRole('textbox', { name: 'What was wrong? (optional)' });
    expect(box).toHaveFocus();
    fireEvent.change(box, { target: { value: '  It is 30 dollars now. ' } });
    await settled(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(onRate).toHaveBeenLastCalledWith('m1', { rating: 'down', comment: 'It is 30 dollars now.' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('on your review list');
  });

  it('shows back a rating read with the history; Escape closes the comment box', async () => {
    setup(answer({ feedback: { rating: 'down', comment: 'Old price' } }));
    expect(down()).toHaveAttribute('aria-pressed', 'true');
    await settled(() => fireEvent.click(down()));
    const box = screen.getByRole('textbox');
    expect(box).toHaveValue('Old price');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('a failed rating says so and keeps the previous choice', async () => {
    setup(answer({ feedback: { rating: 'up', comment: null } }), true);
    await settled(() => fireEvent.click(down()));
    expect(up()).toHaveAttribute('aria-pressed', 'true');
    expect(down()).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('status')).toHaveTextContent('The rating could not be saved: offline');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('a right answer can be kept as a check, once', async () => {
    const onRate = jest.fn<Promise<AnswerFeedbackView>, [string, AnswerFeedbackRequest]>().mockResolvedValue({
      messageId: 'm1',
      rating: 'up',
      comment: null,
      ratedAt: new Date().toISOString(),
    });
    const onKeep = jest.fn<Promise<unknown>, [string]>().mockResolvedValue({});
    render(<AnswerRating message={answer()} onRate={onRate} onKeep={onKeep} />);
    expect(screen.queryByRole('button', { name: 'Keep as a check' })).toBeNull();
    await settled(() => fireEvent.click(up()));
    await settled(() => fireEvent.click(screen.getByRole('button', { name: 'Keep as a check' })));
    expect(onKeep).toHaveBeenCalledWith('m1');
    expect(screen.getByRole('status')).toHaveTextContent('Kept as a check');
    expect(screen.queryByRole('button', { name: 'Keep as a check' })).toBeNull();
  });
});
