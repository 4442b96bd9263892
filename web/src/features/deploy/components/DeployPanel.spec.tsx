import type { DeploymentView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';

import enDeploy from '../../../../public/locales/en/deploy.json';
import esDeploy from '../../../../public/locales/es/deploy.json';
import { ApiError } from '../../../api/client';
import { initI18n } from '../../../i18n';
import { catalogues } from '../../../testing/i18n';
import { fetchSparks } from '../../sparks/api';
import * as deployApi from '../api';
import { DeployPanel } from './DeployPanel';

jest.mock('../api', () => {
  const actual = jest.requireActual<typeof import('../api')>('../api');
  return {
    ...actual,
    fetchDeployment: jest.fn(),
    publish: jest.fn(),
    addOrigin: jest.fn(),
    removeOrigin: jest.fn(),
    fetchVisitorConversations: jest.fn(),
    fetchVisitorConversation: jest.fn(),
    completeStep: jest.fn(),
  };
});
jest.mock('../../sparks/api', () => ({ fetchSparks: jest.fn() }));
// The real widget script is not loaded in jsdom.
jest.mock('./WidgetPreview', () => ({ LivePreview: () => null }));

const deploy = jest.mocked(deployApi);
const sparksApi = jest.mocked(fetchSparks);

const view = (over: Partial<DeploymentView> = {}): DeploymentView => ({
  sparkId: 's1',
  published: false,
  channel: null,
  position: 'right',
  token: null,
  tokenPrefix: null,
  snippet: null,
  scriptUrl: 'https://app.example/widget.js',
  origins: [{ origin: 'https://cafeluna.example', source: 'owner', createdAt: '2026-11-01T10:00:00.000Z' }],
  publishedAt: null,
  firstSeenAt: null,
  firstSeenOrigin: null,
  visitorRetentionDays: 90,
  dailyLimit: 200,
  usedToday: 0,
  refusedSites: [],
  ...over,
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderPanel() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/deploy']}>
        <Routes>
          <Route
            path="/deploy"
            element={
              <>
                <DeployPanel />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  );
}

/** The text of an input's description, read through aria-describedby as a screen reader would. */
function described(input: HTMLElement): string {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

let i18n: I18n;
beforeAll(async () => {
  i18n = await initI18n(i18next.createInstance(), {
    resources: {
      en: { ...catalogues.en, deploy: enDeploy },
      es: { ...catalogues.es, deploy: esDeploy },
    },
    lng: 'en',
  });
  // The markdown renderer is lazy: loaded once here, so a transcript renders it at once.
  await import('../../../ui/Markdown');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  jest.clearAllMocks();
  sparksApi.mockResolvedValue({
    items: [{ _id: 's1', name: 'Café Luna' }] as never,
    total: 1,
    page: 1,
    limit: 100,
  });
  deploy.fetchDeployment.mockResolvedValue(view());
  deploy.fetchVisitorConversations.mockResolvedValue([]);
  deploy.completeStep.mockResolvedValue(undefined);
});

describe('DeployPanel: publishing beyond the plan', () => {
  it('sends one request however often Publish is clicked, and a 402 offers the plans', async () => {
    let refuse!: (error: unknown) => void;
    deploy.publish.mockReturnValue(new Promise((_, reject) => (refuse = reject)));
    renderPanel();
    const publish = await screen.findByTestId('deploy-publish');
    await waitFor(() => expect(publish).toBeEnabled());

    fireEvent.click(publish);
    fireEvent.click(publish);
    expect(publish).toBeDisabled();
    expect(deploy.publish).toHaveBeenCalledTimes(1);

    await act(async () => {
      refuse(
        new ApiError(402, [
          {
            code: 'DEPLOYMENT_NOT_INCLUDED',
            message: 'Your plan allows 0 published Sparks. Choose a plan to publish one.',
          },
        ]),
      );
      await Promise.resolve();
    });
    const alert = await screen.findByRole('alert');
    // The server's words: "allows 0" is never "unpublish one".
    expect(alert).toHaveTextContent('Your plan allows 0 published Sparks. Choose a plan to publish one.');
    expect(alert).not.toHaveTextContent(/unpublish/i);
    expect(publish).toBeEnabled();
    fireEvent.click(within(alert).getByRole('button', { name: 'View plans' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/deploy?showPlans=true');
  });

  it('says it in Spanish too', async () => {
    await i18n.changeLanguage('es');
    const inUse =
      'Ya están en uso todos los Sparks publicados que permite tu plan (1). Despublica alguno o mejora tu plan.';
    deploy.publish.mockRejectedValue(new ApiError(402, [{ code: 'DEPLOYMENT_LIMIT', message: inUse }]));
    renderPanel();
    const publish = await screen.findByTestId('deploy-publish');
    await waitFor(() => expect(publish).toBeEnabled());
    fireEvent.click(publish);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(inUse);
    expect(within(alert).getByRole('button', { name: 'Ver planes' })).toBeInTheDocument();
  });
});

describe('DeployPanel: adding an allowed website', () => {
  it('an empty address is answered next to the field, nothing is sent', async () => {
    renderPanel();
    const input = await screen.findByLabelText('Website address');
    const add = screen.getByTestId('deploy-origin-add');
    await waitFor(() => expect(add).toBeEnabled());
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(add);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(described(input)).toBe(enDeploy.panel.siteRequired);
    expect(screen.getByRole('alert')).toHaveTextContent(enDeploy.panel.siteRequired);
    expect(deploy.addOrigin).not.toHaveBeenCalled();
    // Typing clears the message.
    fireEvent.change(input, { target: { value: 'h' } });
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("the server's refusal shows under the field in the user's language; the saved sites and the text stay", async () => {
    await i18n.changeLanguage('es');
    const message = 'Escribe la dirección de un sitio web, como https://www.ejemplo.com';
    deploy.addOrigin.mockRejectedValue(new ApiError(400, [{ code: 'INVALID_ORIGIN', message, field: 'origin' }]));
    renderPanel();
    const input = await screen.findByLabelText('Dirección del sitio');
    const add = screen.getByTestId('deploy-origin-add');
    await waitFor(() => expect(add).toBeEnabled());
    await screen.findByText('https://cafeluna.example');
    fireEvent.change(input, { target: { value: 'no es una web' } });
    fireEvent.click(add);

    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(deploy.addOrigin).toHaveBeenCalledWith('s1', 'no es una web');
    expect(described(input)).toBe(message);
    // One alert, the field's: nothing under the Publish button.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(/No ha funcionado/)).not.toBeInTheDocument();
    expect(input).toHaveValue('no es una web');
    expect(screen.getByTestId('deploy-origins')).toHaveTextContent('https://cafeluna.example');
  });
});

/** The deploy objectives' steps the panel marked (PATCH /objectives/deploy). */
const marked = () => deploy.completeStep.mock.calls.map(([stepId]) => stepId);
const published = (over: Partial<DeploymentView> = {}) =>
  view({
    published: true,
    channel: 'widget',
    token: 'tok_1',
    tokenPrefix: 'tok_1',
    snippet: '<script src="https://app.example/widget.js" data-token="tok_1"></script>',
    publishedAt: '2026-11-01T10:00:00.000Z',
    ...over,
  });

describe('DeployPanel: the "Choose what and where" objective', () => {
  it('counts the preselected channel as chosen when the Spark is published with it', async () => {
    deploy.publish.mockResolvedValue(published());
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
    deploy.fetchDeployment.mockResolvedValue(published());
    renderPanel();
    expect(await screen.findByTestId('deploy-snippet')).toBeInTheDocument();
    await waitFor(() => expect(marked()).toContain('deploy.channel'));
  });
});

describe("DeployPanel: visitors' conversations", () => {
  it("says which ones are the owner's own live preview (this page's origin) rather than a visitor's site", async () => {
    const conversation = (id: string, origin: string) => ({
      conversationId: id,
      origin,
      messages: 2,
      firstQuestion: `Question on ${origin}`,
      contactEmail: null,
      createdAt: '2026-11-28T07:00:00.000Z',
      updatedAt: '2026-11-28T07:01:00.000Z',
    });
    deploy.fetchDeployment.mockResolvedValue(published());
    deploy.fetchVisitorConversations.mockResolvedValue([
      conversation('c1', window.location.origin),
      conversation('c2', 'https://cafeluna.example'),
    ]);
    renderPanel();
    const preview = await screen.findByRole('button', { name: new RegExp(`Question on ${window.location.origin}`) });
    expect(preview).toHaveTextContent('your live preview');
    expect(preview).not.toHaveTextContent(` · ${window.location.origin} ·`);
    const visitor = screen.getByRole('button', { name: /Question on https:\/\/cafeluna\.example/ });
    expect(visitor).toHaveTextContent('https://cafeluna.example');
    expect(visitor).not.toHaveTextContent('your live preview');
  });

  it("shows a conversation as the chat does: the Spark's markdown rendered, no numbered list, who said what", async () => {
    deploy.fetchDeployment.mockResolvedValue(published());
    deploy.fetchVisitorConversations.mockResolvedValue([
      {
        conversationId: 'c1',
        origin: 'https://cafeluna.example',
        messages: 2,
        firstQuestion: 'When do you open on Saturday?',
        contactEmail: null,
        createdAt: '2026-11-28T07:00:00.000Z',
        updatedAt: '2026-11-28T07:01:00.000Z',
      },
    ]);
    deploy.fetchVisitorConversation.mockResolvedValue({
      messages: [
        { _id: 'm1', type: 'human', data: { content: 'When do you open on *Saturday*?' } },
        { _id: 'm2', type: 'ai', data: { content: 'Saturday: 8:00 to 15:00.\n\n*espiga-en.pdf, page 1*' } },
      ],
    });
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: /When do you open on Saturday\?/ }));
    const source = await screen.findByText('espiga-en.pdf, page 1');
    expect(source.tagName).toBe('EM');
    expect(screen.queryByText(/\*espiga-en\.pdf/)).toBeNull();
    // The visitor's words are shown as written, not as markdown.
    expect(screen.getByText('When do you open on *Saturday*?')).toBeInTheDocument();
    const block = screen.getByRole('heading', { name: "Visitors' conversations" }).parentElement!;
    expect(within(block).queryAllByRole('listitem')).toHaveLength(0);
    expect(within(block).getByText(/The visitor/)).toHaveClass('visually-hidden');
    expect(within(block).getByText(/The Spark/)).toHaveClass('visually-hidden');
  });

  it('shows the sites whose pages were refused and allows one in a click (issue 34, item 7)', async () => {
    deploy.fetchDeployment.mockResolvedValue(
      published({
        refusedSites: [{ origin: 'https://www.cafeluna.example', lastTriedAt: '2026-11-28T07:00:00.000Z' }],
      }),
    );
    deploy.addOrigin.mockResolvedValue(published());
    renderPanel();
    const refused = await screen.findByTestId('deploy-refused');
    expect(refused).toHaveTextContent('Refused: https://www.cafeluna.example');
    fireEvent.click(within(refused).getByRole('button', { name: 'Allow https://www.cafeluna.example' }));
    await waitFor(() => expect(deploy.addOrigin).toHaveBeenCalledWith('s1', 'https://www.cafeluna.example'));
    await waitFor(() => expect(screen.queryByTestId('deploy-refused')).toBeNull());
  });
});
