import type { CreditItemView, LocalizedNames, OverageView, PriceView, UserProfile } from '@sparks/contracts';
import { CREDIT_PACKS_PER_PAGE } from '@sparks/contracts/rules';

import { FREE_PLAN, firstTenant } from '../account/profile';

/** The plan the user pays for, when there is one (a subscription id and a plan other than the free one). */
export function heldPlan(profile: UserProfile | undefined): string | null {
  const subscription = firstTenant(profile)?.subscription;
  if (!subscription?.subscriptionId || subscription.productName === FREE_PLAN) return null;
  return subscription.productName;
}

/** docs/product.md §5: the plans popup hides the plans the user already holds; cheapest first. */
export function visiblePlans(prices: readonly PriceView[], profile: UserProfile | undefined): PriceView[] {
  const held = heldPlan(profile)?.toLowerCase();
  return prices
    .filter((price) => price.productName.toLowerCase() !== held)
    .sort((a, b) => a.unit_amount - b.unit_amount);
}

/** The 15-day trial is over and no plan is held: chatting answers 402 TRIAL_ENDED until a plan is bought. */
export function trialEnded(profile: UserProfile | undefined): boolean {
  const tenant = firstTenant(profile);
  if (!tenant) return false;
  return !tenant.subscription.subscriptionId && !tenant.trial.active;
}

/**
 * docs/product.md §4: the plans popup cannot be closed with Escape while the user has no subscription. During the trial the
 * Free Plan is the user's subscription (docs/decisions.md, "The billing screens"), so it is forced once the
 * trial has ended without a plan.
 */
export function plansClosable(profile: UserProfile | undefined): boolean {
  return !trialEnded(profile);
}

/**
 * docs/product.md §4 out-of-interactions modal: no purchased credits left, the period's interactions used up, a paid plan
 * (not the Free Plan, with a subscription), and no 402 yet (after a 402 the upgrade prompt says it).
 */
export function outOfInteractions(
  profile: UserProfile | undefined,
  credits: number | undefined,
  had402: boolean,
): boolean {
  const tenant = firstTenant(profile);
  if (!tenant || credits === undefined || had402) return false;
  return credits < 1 && planUsedUp(profile);
}

/** Overage is on and its monthly cap pays for one more interaction: a used-up plan still answers (at the premium rate). */
export function overageHasRoom(overage: Partial<OverageView> | undefined): boolean {
  if (!overage?.enabled || !overage.available || !overage.unitAmount) return false;
  return ((overage.usedInteractions ?? 0) + 1) * overage.unitAmount <= (overage.capCents ?? 0);
}

/** A paid plan whose period's interactions are used up: the out-of-interactions modal may be due (credits decide). */
export function planUsedUp(profile: UserProfile | undefined): boolean {
  const tenant = firstTenant(profile);
  if (!tenant || heldPlan(profile) === null) return false;
  return tenant.usage.interactions >= tenant.subscription.limits.interactions.value;
}

/** docs/product.md §5: a pack can be bought only when it has a productId and an interaction count. */
export function canBuyPack(item: Pick<CreditItemView, 'productId' | 'limits'>): boolean {
  return Boolean(item.productId) && Number.isFinite(item.limits?.interactions?.value);
}

/** docs/product.md §5/§9: credit packs sorted by interactions ascending (then price), 4 per page. */
export function sortPacks(items: readonly CreditItemView[]): CreditItemView[] {
  return [...items].sort(
    (a, b) => a.limits.interactions.value - b.limits.interactions.value || a.unit_amount - b.unit_amount,
  );
}

export function pageCount(total: number, perPage = CREDIT_PACKS_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** Page `page` (0-based, clamped to the pages there are). */
export function pageOf<T>(items: readonly T[], page: number, perPage = CREDIT_PACKS_PER_PAGE): T[] {
  const last = pageCount(items.length, perPage) - 1;
  const at = Math.min(Math.max(0, page), last);
  return items.slice(at * perPage, at * perPage + perPage);
}

/** docs/product.md §9: a price is unit_amount / 100, in the catalogue's currency, written the user's way. */
export function formatPrice(unitAmount: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
    unitAmount / 100,
  );
}

/**
 * A catalogue name in the interface's language (credit packs: `1,000 ITx` in English, `1000 ITx` in Spanish): the
 * catalogue's translation, else the English one.
 */
export function localName(
  item: { names?: Partial<LocalizedNames>; name?: string; productName?: string },
  language: string,
): string {
  const lang = language.toLowerCase().startsWith('es') ? 'es' : 'en';
  return item.names?.[lang] || item.names?.en || item.name || item.productName || '';
}

/**
 * A monthly cap typed in the currency's units (`50`, `12.50`, `12,50`, `-5`) as cents, or null when it is not an
 * amount. Its range is the server's to check (OVERAGE_CAP_INVALID, OVERAGE_CAP_TOO_LOW), in the user's language.
 */
export function capToCents(text: string): number | null {
  const plain = text.replace(/\s/g, '');
  const match = /^(-?)(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** Cents as the amount typed in the cap field (`50`, `12.5` → `12.50`), with the language's decimal mark. */
export function centsToCapText(cents: number, locale: string): string {
  if (cents <= 0) return '';
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(cents / 100);
}

/** The symbol a currency is written with in the language (`€`, `US$`). */
export function currencySymbol(currency: string, locale: string): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? currency.toUpperCase();
}

export function formatCount(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

const CHECKOUT_PATH = /^\/checkout\/[A-Za-z0-9_-]{1,100}$/;

/**
 * The local provider's checkout is a page of this app (`<APP_URL>/checkout/<id>`): it opens inside the SPA, so the
 * session in this origin's storage goes with it even when APP_URL names the host differently (localhost and
 * 127.0.0.1). Any other address (a real provider's) is left as it is.
 */
export function checkoutDestination(sessionUrl: string): { inApp: string } | { external: string } {
  let url: URL;
  try {
    url = new URL(sessionUrl, 'http://app.invalid');
  } catch {
    return { external: sessionUrl };
  }
  return CHECKOUT_PATH.test(url.pathname) ? { inApp: url.pathname } : { external: sessionUrl };
}

/** The popups' query flags: a page returned to after a checkout opens without them. */
const POPUP_FLAGS = ['showPlans', 'showCredits'];

/** Where a cancelled checkout goes back to: the page the user was on, without the popup that led to the checkout. */
export function returnPath(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  POPUP_FLAGS.forEach((flag) => params.delete(flag));
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}`;
}

/** A `returnTo` handed to the checkout page, kept only when it is a path of this app (never another site). */
export function safeReturnTo(state: unknown): string | undefined {
  const value = (state as { returnTo?: unknown } | null)?.returnTo;
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return undefined;
  if (value.startsWith('/checkout/')) return undefined;
  return value;
}
