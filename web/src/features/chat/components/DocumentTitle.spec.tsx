import { act, fireEvent, render, screen } from '@testing-library/react';

import { initChatTestI18n } from '../testing';
import { DocumentTitle, type DocumentTitleInfo } from './DocumentTitle';

beforeAll(() => initChatTestI18n('en'));

const byDefault: DocumentTitleInfo = { name: 'espiga-en.pdf', title: 'espiga-en', titleSet: false };

function setup(document = byDefault, onSave = jest.fn<Promise<unknown>, [string | null]>().mockResolvedValue(null)) {
  render(<DocumentTitle document={document} onSave={onSave} />);
  return { onSave };
}

/** Fires an event whose handler saves, and lets the save settle. */
const settled = (fire: () => void) =>
  act(async () => {
    fire();
    await Promise.resolve();
  });

const rename = () => screen.getByRole('button', { name: 'Rename espiga-en.pdf for customers' });
const input = () => screen.getByRole('textbox', { name: 'Title customers read in answers' });

describe('DocumentTitle (issue 34 item 10)', () => {
  it('says what customers read, and saves a new title from the focused field', async () => {
    const { onSave } = setup();
    expect(screen.getByTestId('document-title')).toHaveTextContent('Customers read it as “espiga-en”.');
    fireEvent.click(rename());
    // The default is offered as a hint, not as text to delete.
    expect(input()).toHaveValue('');
    expect(input()).toHaveAttribute('placeholder', 'espiga-en');
    expect(input()).toHaveFocus();
    fireEvent.change(input(), { target: { value: '  Our menu ' } });
    await settled(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSave).toHaveBeenCalledWith('Our menu');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(rename()).toHaveFocus();
  });

  it('gives back the default when the field is emptied', async () => {
    const { onSave } = setup({ name: 'espiga-en.pdf', title: 'Our menu', titleSet: true });
    fireEvent.click(rename());
    expect(input()).toHaveValue('Our menu');
    fireEvent.change(input(), { target: { value: '   ' } });
    await settled(() => fireEvent.submit(input()));
    expect(onSave).toHaveBeenCalledWith(null);
  });

  it('Escape closes without saving; an unchanged title is not sent', async () => {
    const { onSave } = setup();
    fireEvent.click(rename());
    fireEvent.change(input(), { target: { value: 'Menu' } });
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(rename());
    await settled(() => fireEvent.submit(input()));
    expect(onSave).not.toHaveBeenCalled();
  });

  it('keeps the form open with an error when the title could not be saved', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    setup(byDefault, jest.fn().mockRejectedValue(new Error('offline')));
    fireEvent.click(rename());
    fireEvent.change(input(), { target: { value: 'Menu' } });
    await settled(() => fireEvent.submit(input()));
    expect(screen.getByRole('alert')).toHaveTextContent('The title could not be saved. Please try again.');
    expect(input()).toHaveValue('Menu');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    error.mockRestore();
  });
});
