import type { AppConfig } from '@sparks/core';
import type {
  AccountsRepository,
  AnalyticsPeriod,
  AnalyticsRepository,
  DigestCandidate,
  EmailsRepository,
  Transaction,
} from '@sparks/db';
import type { JobProducer } from '@sparks/queues';
import { DigestSweepJob } from './digest-sweep.job';

const counts = { conversations: 0, questions: 0, answers: 0, notCovered: 0, ratedUp: 0, ratedDown: 0 };
const week = (conversations: number): AnalyticsPeriod => ({
  from: '2026-11-23',
  to: '2026-11-29',
  days: [],
  hours: Array<number>(24).fill(0),
  topQuestions: [{ question: 'Open on Sunday?', count: conversations }],
  sites: [],
  totals: { ...counts, conversations, questions: conversations, answers: conversations },
  sparks: [{ sparkId: 's1', name: 'Bakery', totals: { ...counts, conversations, answers: conversations } }],
});
const user = (id: string, over: Partial<DigestCandidate> = {}): DigestCandidate => ({
  id,
  email: `${id}@example.com`,
  language: 'es',
  timeZone: 'Europe/Madrid',
  digestSentOn: null,
  ...over,
});
/** Monday 2026-11-30, 09:00 in Madrid (UTC+1). */
const MONDAY_9_MADRID = '2026-11-30T08:00:00.000Z';

function setup(candidates: DigestCandidate[], periods: Record<string, AnalyticsPeriod | Error>) {
  const tx = {} as Transaction;
  const claimed = new Set<string>();
  const accounts = {
    digestCandidates: jest.fn(({ after, limit }: { after?: string; limit: number }) =>
      Promise.resolve(candidates.filter((c) => !after || c.id > after).slice(0, limit)),
    ),
    claimDigestWeek: jest.fn(async (userId: string, _monday: string, then: (tx: Transaction) => Promise<unknown>) => {
      if (claimed.has(userId)) return { claimed: false };
      const value = await then(tx);
      claimed.add(userId);
      return { claimed: true, value };
    }),
  };
  const analytics = {
    period: jest.fn(({ userId }: { userId: string; timeZone: string }) => {
      const p = periods[userId];
      return p instanceof Error ? Promise.reject(p) : Promise.resolve(p);
    }),
  };
  const create = jest.fn((mail: { to: string }) => Promise.resolve({ id: `mail-${mail.to}` }));
  const emails = { withTx: jest.fn(() => ({ create })) };
  const enqueue = jest.fn(() => Promise.resolve('job'));
  const now = jest.fn(() => new Date('2026-11-26T12:00:00Z'));
  const job = new DigestSweepJob(
    accounts as unknown as AccountsRepository,
    analytics as unknown as AnalyticsRepository,
    emails as unknown as EmailsRepository,
    { enqueue } as unknown as JobProducer,
    { APP_URL: 'https://app.example.com' } as AppConfig,
    { now },
  );
  return { job, accounts, analytics, emails, create, enqueue, now, tx };
}

describe('DigestSweepJob', () => {
  it('sends the due owners their week as of the instant asked for, once, in their language', async () => {
    const s = setup([user('a'), user('b', { language: 'en' })], { a: week(3), b: week(1) });
    const out = await s.job.handle({ requestedAt: MONDAY_9_MADRID });
    expect(out).toEqual({ sent: 2, empty: 0, taken: 0, failed: 0 });
    expect(s.now).not.toHaveBeenCalled();
    expect(s.accounts.digestCandidates).toHaveBeenCalledWith({ monday: '2026-11-30', after: undefined, limit: 200 });
    expect(s.analytics.period).toHaveBeenCalledWith({
      userId: 'a',
      days: 7,
      timeZone: 'Europe/Madrid',
      lastDay: '2026-11-29',
    });
    // The e-mail is written in the claim's transaction, then queued.
    expect(s.emails.withTx).toHaveBeenCalledWith(s.tx);
    expect(s.create.mock.calls.map(([m]) => m)).toEqual([
      expect.objectContaining({
        to: 'a@example.com',
        subject: 'Tus Sparks esta semana: 3 conversaciones',
        language: 'es',
      }),
      expect.objectContaining({
        to: 'b@example.com',
        subject: 'Your Sparks this week: 1 conversation',
        language: 'en',
      }),
    ]);
    expect(s.create.mock.calls[0][0]).toEqual(
      expect.objectContaining({
        text: expect.stringContaining('https://app.example.com/profile'),
        html: expect.any(String),
      }),
    );
    expect(s.enqueue.mock.calls).toEqual([
      ['email.send', { emailId: 'mail-a@example.com' }],
      ['email.send', { emailId: 'mail-b@example.com' }],
    ]);
    // A second sweep finds the weeks taken.
    expect(await s.job.handle({ requestedAt: MONDAY_9_MADRID })).toEqual({ sent: 0, empty: 0, taken: 2, failed: 0 });
    expect(s.enqueue).toHaveBeenCalledTimes(2);
  });

  it('claims an empty week and sends nothing', async () => {
    const s = setup([user('a')], { a: week(0) });
    expect(await s.job.handle({ requestedAt: MONDAY_9_MADRID })).toEqual({ sent: 0, empty: 1, taken: 0, failed: 0 });
    expect(s.accounts.claimDigestWeek).toHaveBeenCalledWith('a', '2026-11-30', expect.any(Function));
    expect(s.create).not.toHaveBeenCalled();
    expect(s.enqueue).not.toHaveBeenCalled();
  });

  it('skips the owners whose Monday 08:00 has not come where they are', async () => {
    // 08:00 UTC: 09:00 in Madrid, but still Monday 00:00 in Los Angeles; and the week handled already.
    const s = setup(
      [user('a', { timeZone: 'America/Los_Angeles' }), user('b', { digestSentOn: '2026-11-30' }), user('c')],
      { c: week(2) },
    );
    expect(await s.job.handle({ requestedAt: MONDAY_9_MADRID })).toEqual({ sent: 1, empty: 0, taken: 0, failed: 0 });
    expect(s.accounts.claimDigestWeek.mock.calls.map(([id]) => id)).toEqual(['c']);
  });

  it('reads nothing when it is Monday morning nowhere; the scheduler’s sweep goes by the clock', async () => {
    const s = setup([user('a')], { a: week(2) });
    expect(await s.job.handle({ requestedAt: 'scheduled' })).toEqual({ sent: 0, empty: 0, taken: 0, failed: 0 });
    expect(s.now).toHaveBeenCalled();
    expect(s.accounts.digestCandidates).not.toHaveBeenCalled();
  });

  it('one owner failing leaves the others sent (their claim rolls back: a later sweep tries again)', async () => {
    const s = setup([user('a'), user('b')], { a: new Error('connection lost'), b: week(1) });
    expect(await s.job.handle({ requestedAt: MONDAY_9_MADRID })).toEqual({ sent: 1, empty: 0, taken: 0, failed: 1 });
  });

  it('reads the week in UTC when PostgreSQL does not know the owner’s zone', async () => {
    const s = setup([user('a')], {});
    const unknown = Object.assign(new Error('wrapped'), { cause: Object.assign(new Error('tz'), { code: '22023' }) });
    s.analytics.period.mockRejectedValueOnce(unknown).mockResolvedValueOnce(week(1));
    expect(await s.job.handle({ requestedAt: MONDAY_9_MADRID })).toMatchObject({ sent: 1 });
    expect(s.analytics.period.mock.calls.map(([v]) => v.timeZone)).toEqual(['Europe/Madrid', 'UTC']);
  });

  it('goes through the candidates a page at a time', async () => {
    const many = Array.from({ length: 450 }, (_, i) => user(`u${String(i).padStart(3, '0')}`));
    const s = setup(many, Object.fromEntries(many.map((u) => [u.id, week(0)])));
    expect(await s.job.handle({ requestedAt: MONDAY_9_MADRID })).toMatchObject({ empty: 450 });
    expect(s.accounts.digestCandidates.mock.calls.map(([v]) => v.after)).toEqual([undefined, 'u199', 'u399']);
  });
});
