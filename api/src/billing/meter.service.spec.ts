import type { MessageRow, SparksRepository, UsageRepository } from '@sparks/db';
import type { JobProducer } from '@sparks/queues';
import type { ConversationRow } from '@sparks/db';
import { MeterService } from './meter.service';

function setup(outcome: { ok: boolean; code?: string } = { ok: true }) {
  const billing = {
    firstTenantOf: jest.fn().mockResolvedValue({ id: 't1' }),
    reserve: jest.fn().mockResolvedValue(outcome.ok ? { ok: true, source: 'plan' } : outcome),
    markSettled: jest.fn().mockResolvedValue(true),
    release: jest.fn().mockResolvedValue(true),
  };
  const jobs = { enqueue: jest.fn().mockResolvedValue('job') };
  const sparks = { findById: jest.fn().mockResolvedValue({ userId: 'owner' }) };
  const meter = new MeterService(
    billing as unknown as UsageRepository,
    sparks as unknown as SparksRepository,
    jobs as unknown as JobProducer,
    { now: () => new Date('2026-11-24T12:00:00Z') },
  );
  return { billing, jobs, sparks, meter };
}

const conversation = (kind: string) => ({ id: 'c1', kind, userId: 'u1', sparkId: 's1' }) as unknown as ConversationRow;
const user = { kind: 'user' as const, userId: 'u1' };
const human = { id: 'm1' } as MessageRow;
const ai = (data: Record<string, unknown>) => ({
  _id: 'a1',
  type: 'ai' as const,
  data: { content: 'x', ...data },
  createdAt: '',
  replyTo: 'm1',
});

describe('MeterService', () => {
  it('holds an interaction for a test chat question and records it once answered', async () => {
    const t = setup();
    const r = await t.meter.reserve({ caller: user, conversation: conversation('test'), text: 'Opening hours?' });
    expect(r).toEqual({ id: expect.any(String) });
    await t.meter.settle(r, { human, messages: [ai({})] as never });
    expect(t.billing.markSettled).toHaveBeenCalledWith(r!.id, 'm1', expect.any(Date));
    expect(t.jobs.enqueue).toHaveBeenCalledWith('usage.record', { messageId: 'm1' });
  });

  it('gives the interaction back when the answer is only the engine error', async () => {
    const t = setup();
    const r = await t.meter.reserve({ caller: user, conversation: conversation('test'), text: 'Opening hours?' });
    await t.meter.settle(r, { human, messages: [ai({ type: 'error' })] as never });
    expect(t.billing.markSettled).not.toHaveBeenCalled();
    expect(t.billing.release).toHaveBeenCalledWith(r!.id);
  });

  it('meters nothing for builder and system chats, nor for the start keyword', async () => {
    const t = setup();
    expect(await t.meter.reserve({ caller: user, conversation: conversation('builder'), text: 'hi' })).toBeNull();
    expect(await t.meter.reserve({ caller: user, conversation: conversation('system'), text: 'hi' })).toBeNull();
    expect(await t.meter.reserve({ caller: user, conversation: conversation('test'), text: 'inicio' })).toBeNull();
    expect(t.billing.reserve).not.toHaveBeenCalled();
  });

  it('refuses with the limit code when nothing is left', async () => {
    const t = setup({ ok: false, code: 'OUT_OF_INTERACTIONS' });
    await expect(
      t.meter.reserve({ caller: user, conversation: conversation('test'), text: 'Opening hours?' }),
    ).rejects.toMatchObject({ code: 'OUT_OF_INTERACTIONS' });
  });

  it("meters a widget visitor's question against the Spark owner's tenant", async () => {
    const t = setup();
    const visitor = { kind: 'visitor' as const, sparkId: 's1', deployToken: 'd', visitorId: 'v' };
    const widget = { ...conversation('widget'), userId: null } as unknown as ConversationRow;
    await t.meter.reserve({ caller: visitor, conversation: widget, text: 'Hello?' });
    expect(t.sparks.findById).toHaveBeenCalledWith('s1');
    expect(t.billing.firstTenantOf).toHaveBeenCalledWith('owner');
  });
});
