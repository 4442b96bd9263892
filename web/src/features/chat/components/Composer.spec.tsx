import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';

import { initChatTestI18n } from '../testing';
import { Composer } from './Composer';

function renderComposer(i18n: I18n) {
  render(
    <I18nextProvider i18n={i18n}>
      <Composer onSend={() => Promise.resolve(true)} sending={false} />
    </I18nextProvider>,
  );
  return screen.getByRole('textbox');
}

describe('Composer: the longest message (4,000 characters)', () => {
  it('says nothing about length for an ordinary message', async () => {
    const box = renderComposer(await initChatTestI18n('en'));
    fireEvent.change(box, { target: { value: 'When do you open on Sundays?' } });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows how long the message is near the limit, and says when it is reached, in the reader’s language', async () => {
    const box = renderComposer(await initChatTestI18n('en'));
    fireEvent.change(box, { target: { value: 'a'.repeat(3650) } });
    expect(screen.getByRole('status')).toHaveTextContent('3,650 / 4,000 characters');
    // A pasted text longer than the box takes is cut by it to the limit: the reader is told.
    fireEvent.change(box, { target: { value: 'a'.repeat(4000) } });
    expect(screen.getByRole('status')).toHaveTextContent(
      'That is the limit: 4,000 characters a message. Anything longer was not kept.',
    );
  });

  it('in Spanish', async () => {
    const box = renderComposer(await initChatTestI18n('es'));
    fireEvent.change(box, { target: { value: 'a'.repeat(4000) } });
    expect(screen.getByRole('status')).toHaveTextContent('Has llegado al límite: 4000 caracteres por mensaje.');
  });
});
