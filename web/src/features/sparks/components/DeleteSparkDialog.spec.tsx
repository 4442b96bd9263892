import type { SparkView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';

import { initTestI18n } from '../../../testing/i18n';
import { fetchDeployment } from '../deployment';
import DeleteSparkDialog from './DeleteSparkDialog';

jest.mock('../deployment', () => ({
  ...jest.requireActual<typeof import('../deployment')>('../deployment'),
  fetchDeployment: jest.fn(),
}));
const deployment = jest.mocked(fetchDeployment);
const notPublished = { sparkId: 's1', published: false, origins: [], firstSeenOrigin: null } as never;

const spark = { _id: 's1', sparkId: 's1', name: 'Bakery bot', pin: false, type: 'DOC' } as SparkView;

beforeEach(async () => {
  // One test speaks Spanish: every test starts in English again.
  await initTestI18n('en');
  deployment.mockReset();
  deployment.mockResolvedValue(notPublished);
});

function renderDialog(onDelete = jest.fn<Promise<void>, [SparkView]>().mockResolvedValue(undefined)) {
  const onClose = jest.fn();
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <DeleteSparkDialog spark={spark} onClose={onClose} onDelete={onDelete} />
    </SWRConfig>,
  );
  return { onDelete, onClose };
}

describe('DeleteSparkDialog (docs/product.md §5: type exactly "Borrar")', () => {
  it('explains what is deleted and keeps the button off until exactly "Borrar" is typed', async () => {
    const { onDelete } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Bakery bot”?' });
    expect(dialog).toHaveAccessibleDescription(
      'This deletes the Spark with its tests, conversations and documents. It cannot be undone.',
    );
    const field = screen.getByLabelText('Type Borrar to confirm');
    const confirm = screen.getByRole('button', { name: 'Delete Spark' });
    expect(field).toHaveFocus();
    expect(confirm).toBeDisabled();

    for (const wrong of ['borrar', 'BORRAR', 'Borra', 'Borrar ', ' Borrar', 'Delete']) {
      fireEvent.change(field, { target: { value: wrong } });
      expect(confirm).toBeDisabled();
    }
    fireEvent.submit(field.closest('form')!);
    expect(onDelete).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'Borrar' } });
    expect(confirm).toBeEnabled();
    await act(async () => {
      fireEvent.click(confirm);
      await Promise.resolve();
    });
    expect(onDelete).toHaveBeenCalledWith(spark);
  });

  it('stays open with a message when the deletion fails', async () => {
    renderDialog(jest.fn().mockRejectedValue(new Error('boom')));
    fireEvent.change(await screen.findByLabelText('Type Borrar to confirm'), { target: { value: 'Borrar' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete Spark' }));
      await Promise.resolve();
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The Spark could not be deleted. Please try again.');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('cancels', async () => {
    const { onClose, onDelete } = renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('speaks Spanish, and the word stays "Borrar"', async () => {
    const i18n = await initTestI18n('es');
    const { I18nextProvider } = await import('react-i18next');
    render(
      <I18nextProvider i18n={i18n}>
        <DeleteSparkDialog spark={spark} onClose={jest.fn()} onDelete={jest.fn()} />
      </I18nextProvider>,
    );
    expect(await screen.findByRole('dialog', { name: '¿Borrar «Bakery bot»?' })).toBeInTheDocument();
    expect(screen.getByLabelText('Escribe Borrar para confirmar')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Borrar Spark' })).toBeDisabled();
  });

  it('says a Spark published on a website goes off that site when deleted', async () => {
    deployment.mockResolvedValue({
      sparkId: 's1',
      published: true,
      origins: [{ origin: 'https://espiga.example', source: 'owner', createdAt: '2026-11-01T10:00:00.000Z' }],
      firstSeenOrigin: 'https://www.espiga.example',
    } as never);
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Bakery bot”?' });
    await waitFor(() =>
      expect(dialog).toHaveAccessibleDescription(
        'It is live on https://www.espiga.example: deleting it takes its chat off that website at once. ' +
          'This deletes the Spark with its tests, conversations and documents. It cannot be undone.',
      ),
    );
  });

  it('has the word field focused on a touch screen too, where Headless UI focuses only the panel', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query === '(pointer: coarse)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
    try {
      renderDialog();
      const field = await screen.findByLabelText('Type Borrar to confirm');
      await waitFor(() => expect(field).toHaveFocus());
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});
