import type { AnalyticsSummary, SparkAnalytics, UserProfile } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import useSWR, { SWRConfig } from 'swr';

import enAnalytics from '../../../../public/locales/en/analytics.json';
import esAnalytics from '../../../../public/locales/es/analytics.json';
import { api, ApiError } from '../../../api/client';
import { initI18n } from '../../../i18n';
import { catalogues } from '../../../testing/i18n';
import { PROFILE_KEY } from '../../account/useProfile';
import AnalyticsPage from './AnalyticsPage';

jest.mock('../../../api/client', () => {
  const actual = jest.requireActual<typeof import('../../../api/client')>('../../../api/client');
  return { ...actual, api: { get: jest.fn() } };
});

const client = jest.mocked(api);
const SPARK_ID = '0b7c5a52-3d1e-4c8a-9f3b-2a6e1d4c5b70';
const PROFILE_PATH = '/account/profile';
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The owner's profile: only its time zone matters to these pages. */
let profileAnswer: () => Promise<Partial<UserProfile>>;
const profile = (timeZone: string | null) => () => Promise.resolve({ username: 'ana@example.com', timeZone });
/** What GET /…/analytics answers, by the calls made to it. */
const analytics = jest.fn<Promise<unknown>, [string]>();
const analyticsCalls = () => client.get.mock.calls.map(([path]) => path).filter((path) => path !== PROFILE_PATH);
const profileCalls = () => client.get.mock.calls.filter(([path]) => path === PROFILE_PATH).length;

const zeroTotals = { conversations: 0, questions: 0, answers: 0, notCovered: 0, ratedUp: 0, ratedDown: 0 };
function week(): SparkAnalytics {
  const days = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'].map(
    (date) => ({ date, conversations: 0, answers: 0, notCovered: 0, ratedUp: 0, ratedDown: 0 }),
  );
  days[2] = { ...days[2], conversations: 3, answers: 4, notCovered: 1, ratedDown: 1 };
  days[6] = { ...days[6], conversations: 1, answers: 4, ratedUp: 2 };
  const hours = Array<number>(24).fill(0);
  hours[10] = 5;
  hours[18] = 2;
  return {
    spark: { sparkId: SPARK_ID, name: 'Northwind' },
    period: { from: '2026-11-23', to: '2026-11-29', timeZone: 'Europe/Madrid' },
    days,
    hours,
    topQuestions: [
      { question: 'What are your opening hours?', count: 4 },
      { question: 'Do you rent kites?', count: 1 },
    ],
    sites: [
      { origin: 'https://shop.example', conversations: 3 },
      { origin: null, conversations: 1 },
    ],
    totals: { conversations: 4, questions: 7, answers: 8, notCovered: 1, ratedUp: 2, ratedDown: 1 },
  };
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function Pages() {
  return (
    <Routes>
      <Route path="/spark/:sparkId/analytics" element={<AnalyticsPage />} />
      <Route path="/analytics" element={<AnalyticsPage />} />
    </Routes>
  );
}

/** The signed-in shell: it reads the profile (and keeps it fresh) before the page opens; the weekly e-mail's save. */
function Shell() {
  const { data, mutate } = useSWR(PROFILE_KEY, () => api.get<UserProfile>(PROFILE_PATH));
  if (!data) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => void mutate({ ...data, timeZone: 'America/Mexico_City' }, { revalidate: false })}
      >
        Save another zone
      </button>
      <Pages />
    </>
  );
}

function renderAt(path: string, { shell = false } = {}) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[path]}>
        {shell ? <Shell /> : <Pages />}
        <Where />
      </MemoryRouter>
    </SWRConfig>,
  );
}

let i18n: I18n;
beforeAll(async () => {
  i18n = await initI18n(i18next.createInstance(), {
    resources: {
      en: { ...catalogues.en, analytics: enAnalytics },
      es: { ...catalogues.es, analytics: esAnalytics },
    },
    lng: 'en',
  });
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  client.get.mockReset();
  analytics.mockReset();
  profileAnswer = profile(null);
  client.get.mockImplementation((path: string) => (path === PROFILE_PATH ? profileAnswer() : analytics(path)));
});

describe('AnalyticsPage (issue 35 item 4)', () => {
  it("shows a Spark's figures: totals, each chart with its figures as text, the lists; 30 days in the browser's zone when the profile has none", async () => {
    analytics.mockResolvedValue(week());
    renderAt(`/spark/${SPARK_ID}/analytics`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics of Northwind' })).toBeInTheDocument();
    expect(analyticsCalls()).toEqual([`/sparks/${SPARK_ID}/analytics?days=30&tz=${encodeURIComponent(browserZone)}`]);
    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    const totals = screen.getByLabelText('Totals of the period');
    expect(within(totals).getByText('Questions').nextSibling).toHaveTextContent('7');
    expect(within(totals).getByText('Rated down').nextSibling).toHaveTextContent('1');

    // The daily chart: an image named by its heading, described by its summary, and a table of every day.
    const daily = screen.getByRole('img', { name: 'Conversations and answers per day' });
    expect(daily).toHaveAccessibleDescription(
      'In 7 days: 4 conversations and 8 answers. The busiest day was Wednesday, November 25, with 3 conversations.',
    );
    const dailyTable = screen.getByRole('table', { name: 'Conversations and answers per day' });
    expect(within(dailyTable).getAllByRole('row')).toHaveLength(8);
    expect(within(dailyTable).getByRole('row', { name: /Sunday, November 29/ })).toHaveTextContent(/14$/);

    const shares = screen.getByRole('img', { name: 'How the answers went' });
    expect(shares).toHaveAccessibleDescription(
      'Of 8 answers: 88% answered from the documents, 13% not covered, 25% rated up, 13% rated down.',
    );
    expect(screen.getByRole('img', { name: 'Busiest hours' })).toHaveAccessibleDescription(
      'Most questions come between 10 AM and 11 AM: 5 of 7.',
    );
    const top = screen.getByRole('region', { name: 'Top questions' });
    expect(
      within(top)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['What are your opening hours?4 times', 'Do you rent kites?1 time']);
    const sites = screen.getByRole('region', { name: 'Widget sites' });
    expect(
      within(sites)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['https://shop.example3 conversations', 'Site not recorded1 conversation']);
    expect(screen.getByRole('link', { name: 'Back to the Spark' })).toHaveAttribute('href', `/spark/${SPARK_ID}`);
  });

  it('the period chooser asks for 7 or 90 days and keeps the choice in the address', async () => {
    analytics.mockResolvedValue(week());
    renderAt(`/spark/${SPARK_ID}/analytics?days=7`);
    expect(await screen.findByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    await screen.findByTestId('analytics-figures');
    expect(analyticsCalls()[0]).toMatch(/\?days=7&/);
    fireEvent.click(screen.getByRole('button', { name: '90 days' }));
    await act(() => Promise.resolve());
    expect(screen.getByTestId('where')).toHaveTextContent(`/spark/${SPARK_ID}/analytics?days=90`);
    expect(analyticsCalls().at(-1)).toMatch(/\?days=90&/);
    expect(screen.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says so when nothing happened in the period, and offers the Spark', async () => {
    analytics.mockResolvedValue({
      ...week(),
      days: [],
      hours: Array<number>(24).fill(0),
      topQuestions: [],
      sites: [],
      totals: zeroTotals,
    });
    renderAt(`/spark/${SPARK_ID}/analytics`);
    expect(await screen.findByRole('heading', { name: 'Nothing to show for these 30 days yet' })).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the Spark' })).toHaveAttribute('href', `/spark/${SPARK_ID}`);
  });

  it('a failed load can be tried again; a Spark that is not the owner\'s is "not found"', async () => {
    analytics.mockRejectedValueOnce(new ApiError(503, [{ code: 'SERVICE_UNAVAILABLE', message: 'down' }]));
    renderAt(`/spark/${SPARK_ID}/analytics`);
    expect(await screen.findByRole('alert')).toHaveTextContent('The figures could not be loaded.');
    analytics.mockResolvedValue(week());
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('analytics-figures')).toBeInTheDocument();

    analytics.mockReset();
    analytics.mockRejectedValue(new ApiError(404, [{ code: 'NOT_FOUND', message: 'Not found' }]));
    renderAt(`/spark/${SPARK_ID}x/analytics`);
    expect(await screen.findByRole('heading', { name: 'Spark not found' })).toBeInTheDocument();
  });

  it('the summary, in Spanish, lists each Spark with a link to its own figures', async () => {
    await i18n.changeLanguage('es');
    const summary: AnalyticsSummary = {
      ...week(),
      sparks: [
        { sparkId: SPARK_ID, name: 'Northwind', totals: week().totals },
        { sparkId: 'a1', name: 'Helpdesk', totals: zeroTotals },
      ],
    };
    analytics.mockResolvedValue(summary);
    renderAt('/analytics?days=90');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Analíticas de todos tus Sparks' }),
    ).toBeInTheDocument();
    expect(analyticsCalls()[0]).toMatch(/^\/analytics\?days=90&tz=/);
    const table = screen.getByRole('table', { name: 'Tus Sparks' });
    expect(within(table).getByRole('link', { name: 'Analíticas de Northwind' })).toHaveAttribute(
      'href',
      `/spark/${SPARK_ID}/analytics?days=90`,
    );
    expect(screen.getByRole('img', { name: 'Conversaciones y respuestas por día' })).toBeInTheDocument();
  });
});

describe("AnalyticsPage: the owner's time zone", () => {
  it("asks in the profile's zone when it has one, and only in it", async () => {
    profileAnswer = profile('Asia/Tokyo');
    analytics.mockResolvedValue(week());
    renderAt(`/spark/${SPARK_ID}/analytics`);
    expect(await screen.findByTestId('analytics-figures')).toBeInTheDocument();
    expect(analyticsCalls()).toEqual([`/sparks/${SPARK_ID}/analytics?days=30&tz=Asia%2FTokyo`]);
  });

  it('costs no profile request when the shell holds the profile, and follows the zone saved since', async () => {
    profileAnswer = profile('Asia/Tokyo');
    analytics.mockResolvedValue(week());
    renderAt('/analytics?days=7', { shell: true });
    expect(await screen.findByTestId('analytics-figures')).toBeInTheDocument();
    expect(profileCalls()).toBe(1);
    expect(analyticsCalls()).toEqual(['/analytics?days=7&tz=Asia%2FTokyo']);

    fireEvent.click(screen.getByRole('button', { name: 'Save another zone' }));
    await waitFor(() => expect(analyticsCalls()).toHaveLength(2));
    expect(analyticsCalls()[1]).toBe('/analytics?days=7&tz=America%2FMexico_City');
    expect(profileCalls()).toBe(1);
  });

  it("asks in the browser's zone when the profile cannot be read", async () => {
    profileAnswer = () => Promise.reject(new ApiError(503, [{ code: 'SERVICE_UNAVAILABLE', message: 'down' }]));
    analytics.mockResolvedValue(week());
    renderAt(`/spark/${SPARK_ID}/analytics`);
    expect(await screen.findByTestId('analytics-figures')).toBeInTheDocument();
    expect(analyticsCalls()).toEqual([`/sparks/${SPARK_ID}/analytics?days=30&tz=${encodeURIComponent(browserZone)}`]);
  });
});
