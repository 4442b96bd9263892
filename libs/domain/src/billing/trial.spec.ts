import { trialEnded, trialState } from './trial';

const ends = new Date('2026-12-13T10:00:00Z');
const at = (iso: string) => new Date(iso);

describe('trialEnded', () => {
  it('runs until the instant of its end, which is already over', () => {
    expect(trialEnded({ subscriptionId: null, trialEndsAt: ends }, at('2026-12-13T09:59:59.999Z'))).toBe(false);
    expect(trialEnded({ subscriptionId: null, trialEndsAt: ends }, ends)).toBe(true);
    expect(trialEnded({ subscriptionId: null, trialEndsAt: ends }, at('2027-01-01T00:00:00Z'))).toBe(true);
  });

  it('never ends for a tenant with a paid subscription', () => {
    expect(trialEnded({ subscriptionId: 'sub_1', trialEndsAt: ends }, at('2027-06-01T00:00:00Z'))).toBe(false);
  });

  it('ends again when the subscription is gone (back on the free plan)', () => {
    expect(trialEnded({ subscriptionId: '', trialEndsAt: ends }, at('2027-06-01T00:00:00Z'))).toBe(true);
  });
});

describe('trialState', () => {
  it('counts 15 days on the day it starts (15 days before its end)', () => {
    expect(trialState(ends, at('2026-11-28T10:00:00Z'))).toEqual({ active: true, daysLeft: 15 });
  });

  it('rounds a started day up: 15 a minute after the start, 1 on the last day', () => {
    expect(trialState(ends, at('2026-11-28T10:01:00Z'))).toEqual({ active: true, daysLeft: 15 });
    expect(trialState(ends, at('2026-12-12T10:00:00Z'))).toEqual({ active: true, daysLeft: 1 });
    expect(trialState(ends, at('2026-12-13T09:59:59.999Z'))).toEqual({ active: true, daysLeft: 1 });
  });

  it('is over with 0 days from its end on, never negative', () => {
    expect(trialState(ends, ends)).toEqual({ active: false, daysLeft: 0 });
    expect(trialState(ends, at('2027-02-01T00:00:00Z'))).toEqual({ active: false, daysLeft: 0 });
  });
});
