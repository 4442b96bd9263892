import { z } from 'zod';
import { sparkIdParams } from './sparks';

/**
 * How a Spark is used, for the owner to look at (issue 35 item 4): per day of a period in the owner's time zone, the
 * conversations, answers and ratings; the busiest hours, the questions asked most (grouped as the review list groups
 * them) and the websites of the widget's conversations.
 */

/** The longest period (days) and the one asked for when none is. */
export const ANALYTICS_MAX_DAYS = 90;
export const ANALYTICS_DEFAULT_DAYS = 30;
/** How many of the questions asked most are listed. */
export const ANALYTICS_TOP_QUESTIONS = 10;

/** An IANA zone name as the browser gives it (`Europe/Madrid`, `UTC`): letters first, never an offset such as `+01:00`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The zone's canonical name when the platform (its ICU time-zone data) knows it, else undefined. */
export function canonicalTimeZone(name: string): string | undefined {
  if (!ZONE_NAME.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const analyticsQuery = z.object({
  /** The period: the last `days` days, today included, in `tz`. */
  days: z.coerce.number().int().min(1).max(ANALYTICS_MAX_DAYS).default(ANALYTICS_DEFAULT_DAYS),
  /** The owner's time zone (IANA, e.g. `Europe/Madrid`): where a day begins and ends. */
  tz: z
    .string()
    .max(64)
    .transform((name, ctx) => {
      const zone = canonicalTimeZone(name);
      if (zone === undefined) {
        ctx.addIssue({ code: 'custom', message: 'an IANA time zone (Area/City)' });
        return z.NEVER;
      }
      return zone;
    })
    .default('UTC'),
});
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

export const sparkAnalyticsParams = sparkIdParams;

const count = z.number().int().min(0);

/** One day of the period (its date in the owner's time zone). */
export const analyticsDaySchema = z.object({
  /** `YYYY-MM-DD`. */
  date: z.string(),
  /** Conversations (tests and widget) with at least one question that day. */
  conversations: count,
  /** Replies that answered from the documents or said the documents do not cover it. */
  answers: count,
  /** Of those, the "not covered" ones. */
  notCovered: count,
  /** Ratings of answers given (or changed) that day, by the owner in a test or by a visitor. */
  ratedUp: count,
  ratedDown: count,
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

/** The whole period's figures (a conversation active on two days counts once). */
export const analyticsTotalsSchema = z.object({
  conversations: count,
  /** Questions asked (the human messages of tests and widget conversations). */
  questions: count,
  answers: count,
  notCovered: count,
  ratedUp: count,
  ratedDown: count,
});
export type AnalyticsTotals = z.infer<typeof analyticsTotalsSchema>;

export const analyticsTopQuestionSchema = z.object({
  /** The wording asked most in the group. */
  question: z.string(),
  /** How many times the group's questions were asked. */
  count,
});
export type AnalyticsTopQuestion = z.infer<typeof analyticsTopQuestionSchema>;

export const analyticsSiteSchema = z.object({
  /** The website (origin) the widget's conversation was started on; null when none was recorded. */
  origin: z.string().nullable(),
  conversations: count,
});
export type AnalyticsSite = z.infer<typeof analyticsSiteSchema>;

/** The figures of a period, for one Spark or for all the owner's Sparks. */
const periodFiguresSchema = z.object({
  period: z.object({
    /** First and last day, `YYYY-MM-DD`, in `timeZone`. */
    from: z.string(),
    to: z.string(),
    timeZone: z.string(),
  }),
  /** Every day of the period, oldest first, days without activity included (zeros). */
  days: z.array(analyticsDaySchema),
  /** Questions asked by hour of the day (0–23) in the time zone, over the period. */
  hours: z.array(count).length(24),
  /** The questions asked most, similar ones together (as the review list groups them), most asked first. */
  topQuestions: z.array(analyticsTopQuestionSchema),
  /** The widget's conversations of the period by website, most first. */
  sites: z.array(analyticsSiteSchema),
  totals: analyticsTotalsSchema,
});

/** One Spark's figures, with the Spark they are of. */
export const sparkAnalyticsSchema = periodFiguresSchema.extend({
  spark: z.object({ sparkId: z.string(), name: z.string() }),
});
export type SparkAnalytics = z.infer<typeof sparkAnalyticsSchema>;

/** Across all the owner's Sparks: the same figures together, and each Spark's totals. */
export const analyticsSummarySchema = periodFiguresSchema.extend({
  sparks: z.array(z.object({ sparkId: z.string(), name: z.string(), totals: analyticsTotalsSchema })),
});
export type AnalyticsSummary = z.infer<typeof analyticsSummarySchema>;
