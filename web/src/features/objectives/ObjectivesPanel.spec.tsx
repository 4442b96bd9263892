import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { SWRConfig } from 'swr';

import { api } from '../../api/client';
import { initTestI18n } from '../../testing/i18n';
import { ObjectivesPanel } from './ObjectivesPanel';

jest.mock('../../api/client', () => ({
  api: { axios: { get: jest.fn() } },
  isApiError: () => false,
}));
const get = jest.mocked(api.axios.get);

const answer = (progress: number, stepStatus: 'pending' | 'completed' = 'pending') => ({
  data: {
    data: [
      {
        _id: 'business',
        title: 'Your business',
        status: stepStatus === 'completed' ? 'inProgress' : 'pending',
        steps: [
          { _id: 'business.name', title: 'Name', status: stepStatus },
          { _id: 'business.what', title: 'What it does', status: 'pending' },
        ],
      },
    ],
    meta: { progress, isCompleted: false, title: 'Bakery bot', key: 's1' },
  },
});

function renderPanel(open = true) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <ObjectivesPanel id="p" objectivesKey="s1" fallbackTitle="Loading name" open={open} onClose={jest.fn()} />
    </SWRConfig>,
  );
}

beforeAll(() => initTestI18n('en'));
beforeEach(() => get.mockReset());

describe('ObjectivesPanel', () => {
  it('shows the name followed by "is", the ring with the percentage, and groups that expand', async () => {
    get.mockResolvedValue(answer(8, 'completed'));
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'Bakery bot is' })).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/objectives/s1', { params: { lang: 'en' } });
    const ring = screen.getByRole('progressbar');
    expect(ring).toHaveAttribute('aria-valuenow', '8');
    expect(ring).toHaveAttribute('aria-valuetext', '8% complete');
    expect(screen.getByTestId('objectives-percent')).toHaveTextContent('8%');
    expect(ring.querySelector('.progress-ring__bar')).toHaveAttribute('stroke-dasharray', '49.26 615.75');

    const toggle = screen.getByRole('button', { name: /Your business/ });
    expect(toggle).toHaveTextContent('In progress');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('What it does')).not.toBeVisible();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const steps = within(document.getElementById(toggle.getAttribute('aria-controls')!)!);
    expect(steps.getByText('What it does')).toBeVisible();
    expect(steps.getAllByText('Completed')).toHaveLength(1);
  });

  it('reads nothing while closed, and is inert', () => {
    get.mockResolvedValue(answer(0));
    const { container } = renderPanel(false);
    expect(get).not.toHaveBeenCalled();
    expect(container.querySelector('aside')).toHaveAttribute('inert');
  });

  it('refreshes every few seconds while open', async () => {
    jest.useFakeTimers();
    try {
      get.mockResolvedValueOnce(answer(0)).mockResolvedValue(answer(8, 'completed'));
      renderPanel();
      await act(async () => {
        await Promise.resolve();
      });
      expect(screen.getByTestId('objectives-percent')).toHaveTextContent('0%');
      await act(async () => {
        jest.advanceTimersByTime(4500);
        await Promise.resolve();
      });
      expect(screen.getByTestId('objectives-percent')).toHaveTextContent('8%');
    } finally {
      jest.useRealTimers();
    }
  });
});
