import { assertHandlersComplete } from './consumer';
import { QUEUE_NAMES, QUEUES, jobIds, queueOf } from './queues';

describe('queue declarations', () => {
  it('declares the queues of the architecture', () => {
    expect(QUEUE_NAMES.sort()).toEqual([
      'assistant-reply',
      'checks',
      'digest',
      'email',
      'ingestion',
      'integrations',
      'privacy',
      'usage',
    ]);
  });

  it('refuses to start a worker when a declared job has no handler', () => {
    expect(() => assertHandlersComplete({})).toThrow(/No handler for declared job\(s\): .*email\/email\.send/);
    const all = Object.fromEntries(QUEUE_NAMES.flatMap((q) => QUEUES[q].jobs).map((j) => [j, () => Promise.resolve()]));
    expect(() => assertHandlersComplete(all)).not.toThrow();
    expect(() => assertHandlersComplete({ ...all, 'email.send': 'not a function' })).toThrow(/email\.send/);
    expect(() => assertHandlersComplete({ ...all, 'reply.generate': undefined })).toThrow(
      /assistant-reply\/reply\.generate/,
    );
  });

  it('derives job ids from the entity so a retry never duplicates work', () => {
    expect(jobIds['email.send']({ emailId: 'abc' })).toBe('email-abc');
    expect(queueOf('email.send')).toBe('email');
    // Graph's ids are encoded: BullMQ takes no `:` in a custom job id.
    expect(jobIds['integration.import']({ connectionId: 'c1', driveId: 'b!x:y', itemId: '01AB' })).toBe(
      'import-c1-b!x%3Ay-01AB',
    );
    for (const name of QUEUE_NAMES) for (const job of QUEUES[name].jobs) expect(queueOf(job)).toBe(name);
  });
});
