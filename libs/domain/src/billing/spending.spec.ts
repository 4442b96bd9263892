import {
  nextSource,
  overageHasRoom,
  packWithRoom,
  planHasRoom,
  type OverageBalance,
  type PackBalance,
} from './spending';

const noOverage: OverageBalance = { enabled: false, subscribed: false, used: 0, held: 0, unitAmount: 0, capCents: 0 };
const overage = (o: Partial<OverageBalance> = {}): OverageBalance => ({
  enabled: true,
  subscribed: true,
  used: 0,
  held: 0,
  unitAmount: 5,
  capCents: 100,
  ...o,
});
const pack = (id: string, interactions: number, used = 0, held = 0): PackBalance => ({ id, interactions, used, held });

describe('planHasRoom', () => {
  it('has room while recorded and held interactions stay under the limit', () => {
    expect(planHasRoom({ used: 98, held: 1, limit: 100 })).toBe(true);
    expect(planHasRoom({ used: 99, held: 1, limit: 100 })).toBe(false);
    expect(planHasRoom({ used: 100, held: 0, limit: 100 })).toBe(false);
  });

  it('has none on a plan without interactions', () => {
    expect(planHasRoom({ used: 0, held: 0, limit: 0 })).toBe(false);
  });
});

describe('packWithRoom', () => {
  it('takes the first pack (the oldest) with an interaction free, held ones counted', () => {
    expect(packWithRoom([pack('a', 10, 10), pack('b', 10, 9, 1), pack('c', 10, 9), pack('d', 10)])?.id).toBe('c');
  });

  it('finds none when every pack is spent or held', () => {
    expect(packWithRoom([pack('a', 5, 5), pack('b', 5, 3, 2)])).toBeUndefined();
    expect(packWithRoom([])).toBeUndefined();
  });
});

describe('overageHasRoom', () => {
  it('allows the interaction that reaches the cap exactly, not the one past it', () => {
    // 5 cents each, cap 100: the 20th interaction costs 100 in all.
    expect(overageHasRoom(overage({ used: 18, held: 1 }))).toBe(true);
    expect(overageHasRoom(overage({ used: 19, held: 0 }))).toBe(true);
    expect(overageHasRoom(overage({ used: 19, held: 1 }))).toBe(false);
    expect(overageHasRoom(overage({ used: 20 }))).toBe(false);
  });

  it('needs overage turned on, a paid subscription and a plan with an overage price', () => {
    expect(overageHasRoom(overage({ enabled: false }))).toBe(false);
    expect(overageHasRoom(overage({ subscribed: false }))).toBe(false);
    expect(overageHasRoom(overage({ unitAmount: 0 }))).toBe(false);
  });

  it('refuses a cap lower than one interaction', () => {
    expect(overageHasRoom(overage({ capCents: 4 }))).toBe(false);
    expect(overageHasRoom(overage({ capCents: 5 }))).toBe(true);
  });
});

describe('nextSource: plan, then credits, then overage', () => {
  const full = { used: 100, held: 0, limit: 100 };

  it('spends the plan first, even with packs and overage available', () => {
    expect(nextSource({ plan: { used: 10, held: 0, limit: 100 }, packs: [pack('a', 10)], overage: overage() })).toEqual(
      { source: 'plan' },
    );
  });

  it('spends the oldest pack with room once the plan is full', () => {
    expect(nextSource({ plan: full, packs: [pack('a', 10, 10), pack('b', 10)], overage: overage() })).toEqual({
      source: 'credits',
      creditId: 'b',
    });
  });

  it('goes to overage once the plan and the packs are spent', () => {
    expect(nextSource({ plan: full, packs: [pack('a', 10, 10)], overage: overage() })).toEqual({ source: 'overage' });
  });

  it('finds nothing to spend when overage is off or at its cap', () => {
    expect(nextSource({ plan: full, packs: [], overage: noOverage })).toBeUndefined();
    expect(nextSource({ plan: full, packs: [], overage: overage({ used: 20 }) })).toBeUndefined();
  });

  it('counts held interactions as spent: a plan filled by holds goes to the packs', () => {
    expect(nextSource({ plan: { used: 97, held: 3, limit: 100 }, packs: [pack('a', 1)], overage: noOverage })).toEqual({
      source: 'credits',
      creditId: 'a',
    });
  });
});
