import type { AppConfig } from '@sparks/core';
import type { ComposeAlert, RecordOutcome, StripeLinkRepository, UsageRepository } from '@sparks/db';
import type { JobProducer } from '@sparks/queues';
import { usageEvents } from '../metrics';
import { UsageRecordJob } from './usage-record.job';

function setup(outcomes: Record<string, RecordOutcome>) {
  const billing = {
    recordMany: jest.fn((ids: string[], _now: Date, _compose?: ComposeAlert) =>
      Promise.resolve(new Map(ids.map((id) => [id, outcomes[id] ?? { recorded: false, alerts: [] }]))),
    ),
  };
  const enqueue = jest.fn();
  const job = new UsageRecordJob(
    billing as unknown as UsageRepository,
    {} as StripeLinkRepository,
    { enqueue } as unknown as JobProducer,
    { now: () => new Date('2026-11-25T12:00:00Z') },
    { STRIPE_ENABLED: false, APP_URL: 'http://localhost:3000' } as AppConfig,
  );
  return { job, billing, enqueue };
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

describe('usage.record: the 80 % / 100 % e-mails', () => {
  it('has them written in the recording, in the owner’s language, and queues each one after it', async () => {
    const { job, billing, enqueue } = setup({
      m1: { recorded: true, tenantId: 't1', source: 'plan', alerts: [80, 100], emailIds: ['e80', 'e100'] },
    });
    await job.handle({ messageId: 'm1' });
    expect(enqueue.mock.calls).toEqual([
      ['email.send', { emailId: 'e80' }],
      ['email.send', { emailId: 'e100' }],
    ]);
    const compose = billing.recordMany.mock.calls[0][2] as ComposeAlert;
    const es = compose({ level: 80, language: 'es', used: 480, limit: 600, plan: 'Ruby' });
    const en = compose({ level: 100, language: 'en', used: 600, limit: 600, plan: 'Ruby' });
    expect(es.text).toContain('480');
    expect(es.text).toContain('http://localhost:3000/billing');
    expect(en.text).toContain('600');
    expect(es.subject).not.toBe(en.subject);
  });
});
