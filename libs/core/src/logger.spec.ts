import { Writable } from 'node:stream';
import { createLogger, withoutQueryValues } from './logger';

/** What Drizzle throws when a statement fails: its text and values, and pg's error as the cause. */
function failedQuery(email: string): Error {
  const pgError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
    code: '23505',
    detail: `Key (email)=(${email}) already exists.`,
  });
  return Object.assign(
    new Error(`Failed query: insert into "users" ("email") values ($1)\nparams: ${email}`, { cause: pgError }),
    { query: 'insert into "users" ("email") values ($1)', params: [email] },
  );
}

describe('the logger and the values of SQL statements (issue 30)', () => {
  it('logs a failed query with its statement and what pg said, never its values', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('test', 'info', sink);
    logger.error({ err: failedQuery('ana@example.com') }, 'Unhandled error');
    const line = lines.join('');
    expect(line).toContain('insert into \\"users\\"');
    expect(line).toContain('Unhandled error');
    expect(line).not.toContain('ana@example.com');
  });

  it('leaves errors that carry no values as they are', () => {
    const plain = new Error('boom');
    expect(withoutQueryValues(plain)).toBe(plain);
    expect(withoutQueryValues('text')).toBe('text');
    const scrubbed = withoutQueryValues(failedQuery('bo@example.com')) as Error & { params?: unknown };
    expect(scrubbed.params).toBeUndefined();
    expect(scrubbed.message).not.toContain('bo@example.com');
    expect(String(scrubbed.stack)).not.toContain('bo@example.com');
    expect(JSON.stringify((scrubbed.cause as Error & { detail?: string }).detail)).toBeUndefined();
  });
});
