import type { EmailsRepository } from '@sparks/db';
import type { JobProducer } from '@sparks/queues';
import { EMAIL_SWEEP_AGE_MS, EmailSweep } from './email-sweep.service';

const now = new Date('2026-11-27T12:00:00Z');

function setup(pending: string[], enqueue = jest.fn()) {
  const pendingBefore = jest.fn((_before: Date) => Promise.resolve(pending));
  const sweep = new EmailSweep(
    { pendingBefore } as unknown as EmailsRepository,
    { enqueue } as unknown as JobProducer,
    { now: () => now },
  );
  return { sweep, pendingBefore, enqueue };
}

describe('EmailSweep', () => {
  it('queues email.send again for the mail pending for more than five minutes', async () => {
    const { sweep, pendingBefore, enqueue } = setup(['a', 'b']);
    expect(await sweep.sweep()).toBe(2);
    expect(pendingBefore).toHaveBeenCalledWith(new Date(now.getTime() - EMAIL_SWEEP_AGE_MS));
    expect(enqueue.mock.calls).toEqual([
      ['email.send', { emailId: 'a' }],
      ['email.send', { emailId: 'b' }],
    ]);
  });

  it('a queue that refuses is logged and tried again on the next sweep, never thrown', async () => {
    const { sweep } = setup(
      ['a'],
      jest.fn(() => Promise.reject(new Error('Redis away'))),
    );
    await expect(sweep.sweep()).resolves.toBe(0);
  });
});
