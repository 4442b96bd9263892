import { Injectable } from '@nestjs/common';
import type { AnalyticsSummary, SparkAnalytics } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { AnalyticsRepository, isSqlState, type AnalyticsPeriod } from '@sparks/db';
import { SparksService } from '../sparks/sparks.service';

/** The period asked for: the last `days` days, today included, in the owner's time zone `tz`. */
export interface AnalyticsRequest {
  days: number;
  tz: string;
}

/** PostgreSQL's code for a time zone it does not know (its tzdata and the platform's ICU may differ). */
const INVALID_PARAMETER_VALUE = '22023';

const view = (p: AnalyticsPeriod, timeZone: string): Omit<SparkAnalytics, 'spark'> => ({
  period: { from: p.from, to: p.to, timeZone },
  days: p.days,
  hours: p.hours,
  topQuestions: p.topQuestions,
  sites: p.sites,
  totals: p.totals,
});

/**
 * How the owner's Sparks are used (issue 35 item 4): per day, the conversations, answers and ratings, the busiest
 * hours, the top questions and the widget's websites, for one Spark (owner only; another's is not found) or across all
 * of them.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly sparks: SparksService,
    private readonly analytics: AnalyticsRepository,
  ) {}

  async ofSpark(userId: string, sparkId: string, q: AnalyticsRequest): Promise<SparkAnalytics> {
    const spark = await this.sparks.owned(userId, sparkId);
    return {
      spark: { sparkId: spark.id, name: spark.name },
      ...view(await this.period({ userId, sparkId, ...q }), q.tz),
    };
  }

  async summary(userId: string, q: AnalyticsRequest): Promise<AnalyticsSummary> {
    const p = await this.period({ userId, ...q });
    return { ...view(p, q.tz), sparks: p.sparks };
  }

  private async period(v: { userId: string; sparkId?: string; days: number; tz: string }): Promise<AnalyticsPeriod> {
    try {
      return await this.analytics.period({ userId: v.userId, sparkId: v.sparkId, days: v.days, timeZone: v.tz });
    } catch (error) {
      // Drizzle wraps pg's error: its SQLSTATE is on the `cause`.
      if (isSqlState(error, INVALID_PARAMETER_VALUE)) throw DomainError.invalid('INVALID_PARAMS', 'tz');
      throw error;
    }
  }
}
