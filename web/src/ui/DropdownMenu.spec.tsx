import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';

import { DropdownMenu } from './DropdownMenu';

function renderMenu(onSelect = jest.fn()) {
  render(
    <MemoryRouter>
      <button type="button">before</button>
      <DropdownMenu
        label="Actions"
        entries={[
          { key: 'a', label: 'First', onSelect },
          { key: 'b', label: 'Second', disabled: true, hint: 'Not on your plan' },
          { key: 'c', label: 'Third', to: '/third' },
        ]}
      />
    </MemoryRouter>,
  );
  return onSelect;
}

describe('DropdownMenu', () => {
  it('is a menu button before the menu code loads, and opens from the keyboard with the first entry active', async () => {
    const onSelect = renderMenu();
    const button = screen.getByRole('button', { name: 'Actions' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await act(async () => {
      fireEvent.keyDown(button, { key: 'Enter' });
      await Promise.resolve();
    });
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'First' })).toHaveAttribute('data-focus'));
    expect(screen.getByRole('menuitem', { name: 'Second' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('menuitem', { name: 'Second' })).toHaveAccessibleDescription('Not on your plan');
    expect(screen.getByRole('menuitem', { name: 'Third' })).toHaveAttribute('href', '/third');

    // The disabled entry is skipped by the arrow keys.
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Third' })).toHaveAttribute('data-focus'));
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'First' })).toHaveAttribute('data-focus'));
    fireEvent.keyDown(menu, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus());
  });

  it('closes with Escape and gives the focus back to its button', async () => {
    renderMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
    const menu = await screen.findByRole('menu');
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
  });
});
