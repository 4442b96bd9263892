import type { AppConfig } from '@sparks/core';
import type { AccountsRepository, BillingRepository, EmailsRepository, RecordOutcome } from '@sparks/db';
import type { JobProducer } from '@sparks/queues';
import { usageEvents } from '../metrics';
import { UsageRecordJob } from './usage-record.job';

function setup(outcomes: Record<string, RecordOutcome>) {
  const billing = {
    recordMany: jest.fn((ids: string[]) =>
      Promise.resolve(new Map(ids.map((id) => [id, outcomes[id] ?? { recorded: false, alerts: [] }]))),
    ),
  };
  const job = new UsageRecordJob(
    billing as unknown as BillingRepository,
    {} as AccountsRepository,
    {} as EmailsRepository,
    { enqueue: jest.fn() } as unknown as JobProducer,
    { now: () => new Date('2026-11-25T12:00:00Z') },
    { STRIPE_ENABLED: false, APP_URL: 'http://localhost:3000' } as AppConfig,
  );
  return { job, billing };
}

const counted = async (source: string) =>
  (await usageEvents.get()).values.find((v) => v.labels.source === source)?.value ?? 0;

describe('usage.record: sparks_usage_events_total', () => {
  beforeEach(() => usageEvents.reset());

  it('counts an event this job recorded, by source, and nothing for a redelivery', async () => {
    const { job } = setup({
      m1: { recorded: true, tenantId: 't1', source: 'plan', alerts: [] },
      m2: { recorded: true, tenantId: 't1', source: 'credits', alerts: [] },
      // Already recorded by an earlier delivery: the hold is gone, no event inserted.
      m3: { recorded: false, alerts: [] },
    });
    await Promise.all([
      job.handle({ messageId: 'm1' }),
      job.handle({ messageId: 'm2' }),
      job.handle({ messageId: 'm3' }),
      // The same message twice in one batch: its outcome goes to the first only.
      job.handle({ messageId: 'm1' }),
    ]);
    expect(await counted('plan')).toBe(1);
    expect(await counted('credits')).toBe(1);
    expect(await counted('overage')).toBe(0);
  });
});
