import { DomainError } from '@sparks/core';
import type { AnalyticsRepository } from '@sparks/db';
import type { SparksService } from '../sparks/sparks.service';
import { AnalyticsService } from './analytics.service';

/** A query error as Drizzle throws it: its own message, pg's error (with the SQLSTATE) as `cause`. */
function drizzleError(code: string): Error {
  const pg = Object.assign(new Error('time zone "Mars/Olympus" not recognized'), { code });
  return new Error('Failed query: SELECT …', { cause: pg });
}

describe('AnalyticsService', () => {
  const serviceFailingWith = (error: Error) =>
    new AnalyticsService(
      {} as SparksService,
      {
        period: () => Promise.reject(error),
      } as unknown as AnalyticsRepository,
    );

  it("answers a zone PostgreSQL does not know as the tz parameter's error, though Drizzle wraps pg's error", async () => {
    const refused = await serviceFailingWith(drizzleError('22023'))
      .summary('user-1', { days: 7, tz: 'Mars/Olympus' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).details).toEqual([{ code: 'INVALID_PARAMS', field: 'tz' }]);
  });

  it('lets any other database error through', async () => {
    const error = drizzleError('42P01');
    await expect(serviceFailingWith(error).summary('user-1', { days: 7, tz: 'UTC' })).rejects.toBe(error);
  });
});
