/**
 * The usage alerts (docs/product.md §9): an e-mail when the period's plan usage reaches 80 % of the plan's limit, and
 * another at 100 %, each once per period (the period it was sent for is kept). Credits and overage do not count: the
 * alerts are about the plan's allowance. A plan without interactions (limit 0) sends none.
 */

export type AlertLevel = 80 | 100;

export interface AlertInput {
  /** Interactions of the plan recorded in the period, those just recorded included. */
  used: number;
  limit: number;
  periodStart: Date;
  /** The periods the 80 % and 100 % alerts were last sent for. */
  alerted80For: Date | null;
  alerted100For: Date | null;
}

/** The alerts due now, lowest first: each crossed level not sent yet for this period. */
export function dueAlerts(a: AlertInput): AlertLevel[] {
  const alerts: AlertLevel[] = [];
  if (a.limit <= 0) return alerts;
  const period = a.periodStart.getTime();
  if (a.used * 100 >= a.limit * 80 && a.alerted80For?.getTime() !== period) alerts.push(80);
  if (a.used >= a.limit && a.alerted100For?.getTime() !== period) alerts.push(100);
  return alerts;
}
