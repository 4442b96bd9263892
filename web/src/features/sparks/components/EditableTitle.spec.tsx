import { act, fireEvent, render, screen } from '@testing-library/react';

import { initTestI18n } from '../../../testing/i18n';
import { EditableTitle } from './EditableTitle';

beforeAll(() => initTestI18n('en'));

async function settle() {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

function setup(onSave = jest.fn<Promise<unknown>, [string]>().mockResolvedValue(undefined), value = 'Bakery bot') {
  const view = render(<EditableTitle value={value} onSave={onSave} />);
  return { onSave, ...view };
}

const title = () => screen.getByRole('heading', { level: 1 });
const input = () => screen.getByRole('textbox', { name: 'Spark name' });

describe('EditableTitle (docs/product.md §4 title editing)', () => {
  it('edits on a click of the title or the pencil; Enter saves the trimmed name', async () => {
    const { onSave } = setup();
    expect(title()).toHaveTextContent('Bakery bot');
    fireEvent.click(title());
    expect(input()).toHaveValue('Bakery bot');
    expect(input()).toHaveFocus();
    fireEvent.change(input(), { target: { value: '  Cake shop  ' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onSave).toHaveBeenCalledWith('Cake shop');
    expect(title()).toHaveTextContent('Cake shop');
    await settle();
    expect(screen.getByRole('button', { name: 'Rename the Spark' })).toHaveFocus();
  });

  it('saves with the confirm button', async () => {
    const { onSave } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Rename the Spark' }));
    fireEvent.change(input(), { target: { value: 'Cake shop' } });
    const save = screen.getByRole('button', { name: 'Save the name' });
    fireEvent.blur(input(), { relatedTarget: save });
    fireEvent.click(save);
    expect(onSave).toHaveBeenCalledWith('Cake shop');
    await settle();
  });

  it('Escape cancels and restores the old title', () => {
    const { onSave } = setup();
    fireEvent.click(title());
    fireEvent.change(input(), { target: { value: 'Something else' } });
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(title()).toHaveTextContent('Bakery bot');
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.click(title());
    expect(input()).toHaveValue('Bakery bot');
  });

  it('does not save a blank or unchanged title', () => {
    const { onSave } = setup();
    fireEvent.click(title());
    fireEvent.change(input(), { target: { value: '   ' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onSave).not.toHaveBeenCalled();
    expect(title()).toHaveTextContent('Bakery bot');

    fireEvent.click(title());
    fireEvent.change(input(), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the name' }));
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.click(title());
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onSave).not.toHaveBeenCalled();
  });

  it('reverts the title and logs the error when the rename fails', async () => {
    const failure = new Error('Network Error');
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let reject!: (error: unknown) => void;
    const onSave = jest.fn((_title: string) => new Promise<unknown>((_, no) => (reject = no)));
    setup(onSave);
    fireEvent.click(title());
    fireEvent.change(input(), { target: { value: 'Cake shop' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(title()).toHaveTextContent('Cake shop');

    await act(async () => {
      reject(failure);
      await Promise.resolve();
    });
    await settle();
    expect(title()).toHaveTextContent('Bakery bot');
    expect(log).toHaveBeenCalledWith('Failed to rename the Spark', failure);
    expect(screen.getByRole('alert')).toHaveTextContent('The name could not be saved.');
    log.mockRestore();
  });

  it('shows the new value when the saved title changes (a rename elsewhere)', () => {
    const { rerender } = setup();
    rerender(<EditableTitle value="From the sidebar" onSave={jest.fn()} />);
    expect(title()).toHaveTextContent('From the sidebar');
  });
});
