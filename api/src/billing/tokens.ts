/** The clock billing reads "now" from (trial end, periods): the system clock, movable in tests. */
export const CLOCK = Symbol('BILLING_CLOCK');
