import type { CreditItemView, PriceView, UserProfile } from '@sparks/contracts';

import {
  canBuyPack,
  capToCents,
  centsToCapText,
  checkoutDestination,
  formatPrice,
  heldPlan,
  localName,
  outOfInteractions,
  overageHasRoom,
  pageCount,
  pageOf,
  plansClosable,
  returnPath,
  safeReturnTo,
  sortPacks,
  trialEnded,
  visiblePlans,
} from './billing';

type Tenant = UserProfile['tenants'][number];

function profile(tenant: Partial<Tenant> = {}, subscription: Partial<Tenant['subscription']> = {}): UserProfile {
  return {
    id: 'u',
    _id: 'u',
    username: 'someone@example.com',
    email: 'someone@example.com',
    firstname: '',
    lastname: '',
    config: { language: 'en' },
    timeZone: null,
    weeklyDigest: true,
    verified: true,
    createdAt: '',
    tenants: [
      {
        customerId: 'cus_1',
        status: 'active',
        subscription: {
          productName: 'Free Plan',
          subscriptionId: null,
          limits: { deployments: { value: 0 }, interactions: { value: 100 } },
          ...subscription,
        },
        usage: { interactions: 0 },
        trial: { startedAt: '', endsAt: '', daysLeft: 15, active: true },
        ...tenant,
      },
    ],
  };
}

const ruby = profile(
  { usage: { interactions: 0 } },
  {
    productName: 'Ruby',
    subscriptionId: 'sub_1',
    limits: { deployments: { value: 1 }, interactions: { value: 600 } },
  },
);

function price(slug: string, productName: string, unit_amount: number): PriceView {
  const limit = { value: 1 };
  return {
    priceId: `price_${slug}`,
    productId: `prod_${slug}`,
    unit_amount,
    currency: 'eur',
    interval: 'month',
    slug,
    productName,
    limits: { interactions: limit, deployments: limit, sparks: limit, documents: limit },
    documentSharing: false,
    overage_unit_amount: 0,
  };
}

function pack(interactions: number, unit_amount: number, productId = `prod_${interactions}`): CreditItemView {
  return {
    _id: productId,
    productId,
    priceId: `price_${interactions}`,
    name: `${interactions} ITx`,
    names: { en: `${interactions} ITx`, es: `${interactions} ITx` },
    unit_amount,
    currency: 'usd',
    limits: { interactions: { value: interactions } },
  };
}

describe('plans popup (docs/product.md §5)', () => {
  const prices = [price('emeral', 'Emerald', 9000), price('zaphire', 'Zaphire', 18000), price('ruby', 'Ruby', 4500)];

  it('shows every plan on sale, cheapest first, to a user without a plan', () => {
    expect(visiblePlans(prices, profile()).map((p) => p.slug)).toEqual(['ruby', 'emeral', 'zaphire']);
  });

  it('hides the plan the user holds (by name, whatever its case)', () => {
    expect(visiblePlans(prices, ruby).map((p) => p.slug)).toEqual(['emeral', 'zaphire']);
    const upper = profile({}, { productName: 'EMERALD', subscriptionId: 'sub_2' });
    expect(visiblePlans(prices, upper).map((p) => p.slug)).toEqual(['ruby', 'zaphire']);
  });

  it('treats the Free Plan as no plan held', () => {
    expect(heldPlan(profile())).toBeNull();
    expect(heldPlan(profile({}, { subscriptionId: 'sub_x' }))).toBeNull();
    expect(heldPlan(ruby)).toBe('Ruby');
  });
});

describe('trial end (docs/product.md §4)', () => {
  it('is over when the trial is not active and no plan is held', () => {
    expect(trialEnded(profile())).toBe(false);
    const ended = profile({ trial: { startedAt: '', endsAt: '', daysLeft: 0, active: false } });
    expect(trialEnded(ended)).toBe(true);
    expect(trialEnded({ ...ruby, tenants: [{ ...ruby.tenants[0], trial: ended.tenants[0].trial }] })).toBe(false);
    expect(trialEnded(undefined)).toBe(false);
  });

  it('makes the plans popup impossible to close only then', () => {
    expect(plansClosable(profile())).toBe(true);
    expect(plansClosable(ruby)).toBe(true);
    expect(plansClosable(profile({ trial: { startedAt: '', endsAt: '', daysLeft: 0, active: false } }))).toBe(false);
  });
});

describe('out-of-interactions modal (docs/product.md §4)', () => {
  const usedUp = { ...ruby, tenants: [{ ...ruby.tenants[0], usage: { interactions: 600 } }] };

  it('opens with a paid plan used up, no credits and no 402 yet', () => {
    expect(outOfInteractions(usedUp, 0, false)).toBe(true);
  });

  it('stays closed when any condition is missing', () => {
    expect(outOfInteractions(usedUp, 1, false)).toBe(false); // credits left
    expect(outOfInteractions(usedUp, 0, true)).toBe(false); // a 402 happened: the upgrade prompt speaks
    expect(outOfInteractions(ruby, 0, false)).toBe(false); // interactions left
    expect(outOfInteractions(usedUp, undefined, false)).toBe(false); // credits not known yet
    const free = profile({ usage: { interactions: 100 } });
    expect(outOfInteractions(free, 0, false)).toBe(false); // the free plan
  });
});

describe('credit packs (docs/product.md §5, §9)', () => {
  const packs = [pack(500, 4000), pack(100, 1000), pack(2500, 15000), pack(250, 2250), pack(1000, 7000)];

  it('sorts by interactions ascending', () => {
    expect(sortPacks(packs).map((p) => p.limits.interactions.value)).toEqual([100, 250, 500, 1000, 2500]);
  });

  it('shows 4 a page and counts the pages', () => {
    const sorted = sortPacks(packs);
    expect(pageCount(sorted.length)).toBe(2);
    expect(pageCount(4)).toBe(1);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(sorted, 0).map((p) => p.limits.interactions.value)).toEqual([100, 250, 500, 1000]);
    expect(pageOf(sorted, 1).map((p) => p.limits.interactions.value)).toEqual([2500]);
    expect(pageOf(sorted, 7).map((p) => p.limits.interactions.value)).toEqual([2500]);
  });

  it('prices a pack at unit_amount / 100 in the user locale', () => {
    expect(formatPrice(2250, 'usd', 'en')).toBe('$22.50');
    expect(formatPrice(2250, 'usd', 'es').replace(/\s/g, ' ')).toBe('22,50 US$');
    expect(formatPrice(4500, 'eur', 'en')).toBe('€45.00');
    expect(formatPrice(4500, 'eur', 'es').replace(/\s/g, ' ')).toBe('45,00 €');
  });

  it('can buy a pack only with a product id and an interaction count', () => {
    expect(canBuyPack(pack(100, 1000))).toBe(true);
    expect(canBuyPack({ ...pack(100, 1000), productId: '' })).toBe(false);
    expect(canBuyPack({ productId: 'p', limits: { interactions: { value: Number.NaN } } })).toBe(false);
  });
});

describe('checkout destination', () => {
  it('opens the local provider page inside the app, whatever host APP_URL names', () => {
    expect(checkoutDestination('http://localhost:3000/checkout/cs_local_abc')).toEqual({
      inApp: '/checkout/cs_local_abc',
    });
    expect(checkoutDestination('/checkout/cs_local_abc')).toEqual({ inApp: '/checkout/cs_local_abc' });
  });

  it('leaves any other address as it is', () => {
    const stripe = 'https://checkout.stripe.com/c/pay/cs_test_a1';
    expect(checkoutDestination(stripe)).toEqual({ external: stripe });
    expect(checkoutDestination('http://localhost:3000/checkout/a/b')).toEqual({
      external: 'http://localhost:3000/checkout/a/b',
    });
  });
});

describe('catalogue names in the user language', () => {
  const thousand = { ...pack(1000, 7000), name: '1,000 ITx', names: { en: '1,000 ITx', es: '1000 ITx' } };

  it("shows a pack's name as the interface's language writes it", () => {
    expect(localName(thousand, 'es')).toBe('1000 ITx');
    expect(localName(thousand, 'es-ES')).toBe('1000 ITx');
    expect(localName(thousand, 'en')).toBe('1,000 ITx');
  });

  it('falls back to the English name when a translation is missing', () => {
    expect(localName({ name: '1,000 ITx', names: { en: '1,000 ITx', es: '' } }, 'es')).toBe('1,000 ITx');
    expect(localName({ name: '1,000 ITx' }, 'es')).toBe('1,000 ITx');
    expect(localName({ productName: 'Ruby', names: { en: 'Ruby', es: 'Ruby' } }, 'es')).toBe('Ruby');
  });
});

describe('where a cancelled checkout goes back to', () => {
  it('the page the checkout was opened from, without the popup flags that led to it', () => {
    expect(returnPath('/spark/s1/test/t1', '?showCredits=true')).toBe('/spark/s1/test/t1');
    expect(returnPath('/deploy', '?q=Bakery&showPlans=true')).toBe('/deploy?q=Bakery');
    expect(returnPath('/billing', '')).toBe('/billing');
  });

  it('only a path of this app, never another site or the checkout itself', () => {
    expect(safeReturnTo({ returnTo: '/spark/s1' })).toBe('/spark/s1');
    expect(safeReturnTo({ returnTo: 'https://evil.example/' })).toBeUndefined();
    expect(safeReturnTo({ returnTo: '//evil.example/' })).toBeUndefined();
    expect(safeReturnTo({ returnTo: '/\\evil.example/' })).toBeUndefined();
    expect(safeReturnTo({ returnTo: '/checkout/cs_local_1' })).toBeUndefined();
    expect(safeReturnTo(null)).toBeUndefined();
    expect(safeReturnTo({ returnTo: 42 })).toBeUndefined();
  });
});

describe('overage', () => {
  it('reads a cap typed in euros as cents, either decimal mark; anything else is not an amount', () => {
    expect(capToCents('50')).toBe(5000);
    expect(capToCents(' 12,5 ')).toBe(1250);
    expect(capToCents('12.05')).toBe(1205);
    expect(capToCents('-5')).toBe(-500);
    expect(capToCents('')).toBeNull();
    expect(capToCents('1.000,50')).toBeNull();
    expect(capToCents('12.345')).toBeNull();
    expect(capToCents('fifty')).toBeNull();
  });

  it('writes cents back in the language, without a fraction when whole', () => {
    expect(centsToCapText(5000, 'en')).toBe('50');
    expect(centsToCapText(1250, 'es')).toBe('12,50');
    expect(centsToCapText(0, 'en')).toBe('');
  });

  it('has room while on and one more interaction fits under the cap', () => {
    const on = { enabled: true, available: true, unitAmount: 12, capCents: 30 };
    expect(overageHasRoom({ ...on, usedInteractions: 1 })).toBe(true);
    expect(overageHasRoom({ ...on, usedInteractions: 2 })).toBe(false);
    expect(overageHasRoom({ ...on, enabled: false, usedInteractions: 0 })).toBe(false);
    expect(overageHasRoom({ ...on, available: false, usedInteractions: 0 })).toBe(false);
    expect(overageHasRoom(undefined)).toBe(false);
  });
});
