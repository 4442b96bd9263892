import { RING_CIRCUMFERENCE, RING_RADIUS, ringDasharray, ringFilled, toPercent } from './ring';

describe('objectives progress ring', () => {
  it('has the radius of the spec and its circumference', () => {
    expect(RING_RADIUS).toBe(98);
    expect(RING_CIRCUMFERENCE).toBeCloseTo(615.75, 2);
  });

  it.each([
    [0, '0.00 615.75'],
    [8, '49.26 615.75'],
    [50, '307.88 615.75'],
    [100, '615.75 615.75'],
  ])('draws %i%% as stroke-dasharray "%s"', (progress, dasharray) => {
    expect(ringDasharray(progress)).toBe(dasharray);
  });

  it('clamps and rounds what it is given', () => {
    expect(toPercent(-5)).toBe(0);
    expect(toPercent(140)).toBe(100);
    expect(toPercent(7.6)).toBe(8);
    expect(toPercent(Number.NaN)).toBe(0);
    expect(toPercent(undefined)).toBe(0);
    expect(toPercent('42')).toBe(42);
    expect(ringFilled(200)).toBeCloseTo(RING_CIRCUMFERENCE);
    expect(ringFilled(-1)).toBe(0);
  });
});
