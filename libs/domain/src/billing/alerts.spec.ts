import { dueAlerts, type AlertInput } from './alerts';

const period = new Date('2026-11-01T00:00:00Z');
const before = new Date('2026-10-01T00:00:00Z');
const input = (a: Partial<AlertInput>): AlertInput => ({
  used: 0,
  limit: 100,
  periodStart: period,
  alerted80For: null,
  alerted100For: null,
  ...a,
});

describe('dueAlerts', () => {
  it('sends nothing under 80 % of the plan', () => {
    expect(dueAlerts(input({ used: 79 }))).toEqual([]);
  });

  it('sends 80 % at exactly 80 % of the limit, and 100 % at the limit', () => {
    expect(dueAlerts(input({ used: 80 }))).toEqual([80]);
    expect(dueAlerts(input({ used: 99 }))).toEqual([80]);
    expect(dueAlerts(input({ used: 100, alerted80For: period }))).toEqual([100]);
  });

  it('sends both at once when one batch crosses both, 80 first', () => {
    expect(dueAlerts(input({ used: 100 }))).toEqual([80, 100]);
    expect(dueAlerts(input({ used: 150 }))).toEqual([80, 100]);
  });

  it('compares exactly for a limit not divisible by 5 (80 % of 7 is 5.6: the 6th interaction)', () => {
    expect(dueAlerts(input({ limit: 7, used: 5 }))).toEqual([]);
    expect(dueAlerts(input({ limit: 7, used: 6 }))).toEqual([80]);
  });

  it('sends each level once per period', () => {
    expect(dueAlerts(input({ used: 90, alerted80For: period }))).toEqual([]);
    expect(dueAlerts(input({ used: 120, alerted80For: period, alerted100For: period }))).toEqual([]);
  });

  it('sends again in a new period (the last alert was for the one before)', () => {
    expect(dueAlerts(input({ used: 85, alerted80For: before, alerted100For: before }))).toEqual([80]);
  });

  it('sends none on a plan without interactions', () => {
    expect(dueAlerts(input({ limit: 0, used: 3 }))).toEqual([]);
  });
});
