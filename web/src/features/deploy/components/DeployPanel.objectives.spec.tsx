import type { DeploymentView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { initTestI18n } from '../../../testing/i18n';
import { fetchSparks } from '../../sparks/api';
import * as deployApi from '../api';
import { DeployPanel } from './DeployPanel';

jest.mock('../api', () => {
  const actual = jest.requireActual<typeof import('../api')>('../api');
  return {
    ...actual,
    fetchDeployment: jest.fn(),
    publish: jest.fn(),
    completeStep: jest.fn(),
    fetchVisitorConversations: jest.fn(),
  };
});
jest.mock('../../sparks/api', () => ({ fetchSparks: jest.fn() }));
// The real widget script is not loaded in jsdom.
jest.mock('./WidgetPreview', () => ({ LivePreview: () => null }));

const deploy = jest.mocked(deployApi);

const view = (published: boolean): DeploymentView => ({
  sparkId: 's1',
  published,
  channel: published ? 'widget' : null,
  position: 'right',
  token: published ? 'tok_1' : null,
  tokenPrefix: published ? 'tok_1' : null,
  snippet: published ? '<script src="https://app.example/widget.js" data-token="tok_1"></script>' : null,
  scriptUrl: 'https://app.example/widget.js',
  origins: [],
  publishedAt: published ? '2026-11-01T10:00:00.000Z' : null,
  firstSeenAt: null,
  firstSeenOrigin: null,
});

function renderPanel() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/deploy']}>
        <DeployPanel />
      </MemoryRouter>
    </SWRConfig>,
  );
}

/** The deploy objectives' steps the panel marked (PATCH /objectives/deploy). */
const marked = () => deploy.completeStep.mock.calls.map(([stepId]) => stepId);

beforeAll(() => initTestI18n('en'));
beforeEach(() => {
  jest.clearAllMocks();
  jest.mocked(fetchSparks).mockResolvedValue({
    items: [{ _id: 's1', name: 'Café Luna' }] as never,
    total: 1,
    page: 1,
    limit: 100,
  });
  deploy.fetchVisitorConversations.mockResolvedValue([]);
  deploy.completeStep.mockResolvedValue(undefined);
});

describe('DeployPanel: the "Choose what and where" objective', () => {
  it('counts the preselected channel as chosen when the Spark is published with it', async () => {
    deploy.fetchDeployment.mockResolvedValue(view(false));
    deploy.publish.mockResolvedValue(view(true));
    renderPanel();
    const publish = await screen.findByTestId('deploy-publish');
    await waitFor(() => expect(publish).toBeEnabled());
    await waitFor(() => expect(marked()).toContain('deploy.spark'));
    // Nothing chosen yet: the default alone is not a choice until it is published.
    expect(marked()).not.toContain('deploy.channel');

    act(() => {
      fireEvent.click(publish);
    });
    expect(deploy.publish).toHaveBeenCalledWith('s1', 'widget');
    await waitFor(() => expect(marked()).toEqual(expect.arrayContaining(['deploy.channel', 'deploy.publish'])));
  });

  it('counts the channel of a Spark published before as chosen', async () => {
    deploy.fetchDeployment.mockResolvedValue(view(true));
    renderPanel();
    expect(await screen.findByTestId('deploy-snippet')).toBeInTheDocument();
    await waitFor(() => expect(marked()).toContain('deploy.channel'));
  });
});
