export type { BillingTenantRow, CheckoutSessionRow, CreditPackRow, PlanRow, TenantBillingRow } from './tenant-billing';
export * from './billing.repository';
export * from './usage.repository';
export * from './checkout.repository';
export * from './stripe-link.repository';
