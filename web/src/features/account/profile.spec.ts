import type { UserProfile } from '@sparks/contracts';

import { canDeploy, cut, displayName, greetingName, isInactive, planInfo } from './profile';

function profile(overrides: Partial<UserProfile> = {}, tenant: Record<string, unknown> = {}): UserProfile {
  return {
    id: 'u',
    _id: 'u',
    username: 'someone.with.a.long.name@example.com',
    email: 'x',
    firstname: '',
    lastname: '',
    config: { language: 'en' },
    timeZone: null,
    weeklyDigest: true,
    verified: true,
    createdAt: '',
    tenants: [
      {
        customerId: 'c',
        status: 'active',
        subscription: {
          productName: 'Free Plan',
          subscriptionId: null,
          limits: { deployments: { value: 0 }, interactions: { value: 100 } },
        },
        usage: { interactions: 0 },
        trial: { startedAt: '', endsAt: '', daysLeft: 15, active: true },
        ...tenant,
      },
    ],
    ...overrides,
  };
}

describe('profile dropdown facts (docs/product.md §2)', () => {
  it('shows first and last name, else the username cut to 15 or 10 characters', () => {
    expect(displayName(profile({ firstname: 'Ana', lastname: 'García' }), 15)).toBe('Ana García');
    expect(displayName(profile({ firstname: 'Ana' }), 15)).toBe('Ana');
    expect(displayName(profile(), 15)).toBe('someone.with.a.…');
    expect(displayName(profile(), 10)).toBe('someone.wi…');
    expect(displayName(profile({ username: 'short@x.io' }), 10)).toBe('short@x.io');
    expect(cut('abc', 3)).toBe('abc');
  });

  it('reads the free trial, a paid plan, and nothing while loading', () => {
    expect(planInfo(profile())).toEqual({ kind: 'free', daysLeft: 15, trialActive: true });
    const ruby = profile({}, { subscription: { productName: 'Ruby', limits: { deployments: { value: 1 } } } });
    expect(planInfo(ruby)).toEqual({ kind: 'paid', name: 'Ruby' });
    expect(planInfo(undefined)).toEqual({ kind: 'none' });
  });

  it('turns deploy off for a deployments limit of 0, and knows a disabled account', () => {
    expect(canDeploy(profile())).toBe(false);
    expect(
      canDeploy(profile({}, { subscription: { productName: 'Ruby', limits: { deployments: { value: 1 } } } })),
    ).toBe(true);
    expect(canDeploy(undefined)).toBe(true);
    expect(isInactive(profile({}, { status: 'inactive' }))).toBe(true);
    expect(isInactive(profile())).toBe(false);
  });
});

describe('greetingName (issue 18 item 13)', () => {
  it('greets by the first name, else by the part of the e-mail before @, never by the raw address', () => {
    expect(greetingName(profile({ firstname: ' Marta ', username: 'baker.mob1@example.com' }))).toBe('Marta');
    expect(greetingName(profile({ firstname: '', username: 'baker.mob1@example.com' }))).toBe('baker.mob1');
    expect(greetingName(profile({ firstname: '  ', username: 'panaderia' }))).toBe('panaderia');
    expect(greetingName(undefined)).toBe('');
  });
});
