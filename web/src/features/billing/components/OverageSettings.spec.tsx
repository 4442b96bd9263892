import type { OverageView } from '@sparks/contracts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type i18next from 'i18next';
import { SWRConfig } from 'swr';

import { api, ApiError } from '../../../api/client';
import { initTestI18n } from '../../../testing/i18n';
import { OverageSettings } from './OverageSettings';

jest.mock('../../../api/client', () => {
  const actual = jest.requireActual<typeof import('../../../api/client')>('../../../api/client');
  return { ...actual, api: { get: jest.fn(), put: jest.fn() } };
});
const client = jest.mocked(api);

const view = (over: Partial<OverageView> = {}): OverageView => ({
  enabled: false,
  capCents: 0,
  available: true,
  unitAmount: 12,
  currency: 'eur',
  usedInteractions: 3,
  spentCents: 36,
  periodEnd: '2026-12-15T10:00:00.000Z',
  ...over,
});

function renderIt() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <OverageSettings />
    </SWRConfig>,
  );
}

let i18n: typeof i18next;
beforeAll(async () => {
  i18n = await initTestI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  client.get.mockReset();
  client.put.mockReset();
});

describe('OverageSettings', () => {
  it('shows nothing without a paid plan (no overage on the free plan)', async () => {
    client.get.mockResolvedValue(view({ available: false, unitAmount: 0 }));
    const { container } = renderIt();
    await waitFor(() => expect(client.get).toHaveBeenCalledWith('/billing/overage'));
    await new Promise((r) => setTimeout(r, 20));
    expect(container).toBeEmptyDOMElement();
  });

  it('turns overage on with a cap in euros: the rate, the period spent, the cap sent in cents', async () => {
    client.get.mockResolvedValue(view());
    renderIt();
    const open = await screen.findByTestId('overage-open');
    expect(open).toHaveTextContent('Extra interactions');
    expect(open).toHaveTextContent('Off');
    fireEvent.click(open);

    const dialog = await screen.findByRole('dialog', { name: 'Extra interactions beyond your plan' });
    expect(dialog).toHaveAccessibleDescription(/at €0\.12 per interaction, up to the monthly cap you choose/);
    expect(within(dialog).getByTestId('overage-spent')).toHaveTextContent(
      'This period: €0.36 spent on 3 extra interactions. It starts again on December 15, 2026.',
    );
    const cap = within(dialog).getByLabelText('Monthly spending cap (€)');
    expect(cap).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Keep answering at €0.12 per interaction' }));
    expect(cap).toBeEnabled();
    fireEvent.change(cap, { target: { value: '20.50' } });
    expect(within(dialog).getByText('Pays for up to 170 extra interactions a month.')).toBeInTheDocument();

    client.put.mockResolvedValue(view({ enabled: true, capCents: 2050 }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(client.put).toHaveBeenCalledWith('/billing/overage', { enabled: true, capCents: 2050 });
    expect(screen.getByTestId('overage-open')).toHaveTextContent('Up to €20.50 a month');
  });

  it("shows the server's refusal in the user's language and stays open; turning it off keeps the cap", async () => {
    await i18n.changeLanguage('es');
    client.get.mockResolvedValue(view({ enabled: true, capCents: 5000 }));
    renderIt();
    const open = await screen.findByTestId('overage-open');
    expect(open).toHaveTextContent(/Hasta 50,00\s€ al mes/);
    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Interacciones adicionales a tu plan' });
    const cap = within(dialog).getByLabelText('Límite mensual de gasto (€)');
    expect(cap).toHaveValue('50');

    const message = 'El límite mensual de gasto debe ser un importe entre 0 € y 100.000 €';
    client.put.mockRejectedValueOnce(new ApiError(400, [{ code: 'OVERAGE_CAP_INVALID', message, field: 'capCents' }]));
    fireEvent.change(cap, { target: { value: '-5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(client.put).toHaveBeenLastCalledWith('/billing/overage', { enabled: true, capCents: -500 });
    expect(cap).toHaveAttribute('aria-invalid', 'true');

    // Not an amount: said here, nothing sent.
    fireEvent.change(cap, { target: { value: 'cincuenta' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Escribe un importe como 50 o 12,50.');
    expect(client.put).toHaveBeenCalledTimes(1);

    // Off: the cap field's text does not matter, the cap the owner had is kept.
    fireEvent.click(within(dialog).getByRole('switch'));
    client.put.mockResolvedValue(view({ enabled: false, capCents: 5000 }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(client.put).toHaveBeenLastCalledWith('/billing/overage', { enabled: false, capCents: 5000 });
    expect(screen.getByTestId('overage-open')).toHaveTextContent('Desactivadas');
  });
});
