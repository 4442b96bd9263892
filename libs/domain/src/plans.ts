import { DomainError } from '@sparks/core';
import type { BillingRepository, TenantRow } from '@sparks/db';
import { trialEnded } from './billing/index';

/** The plan whose `productName` opens the document-sharing integration (docs/product.md §6). */
export const DOCUMENT_SHARING_PRODUCT = 'zaphire';

/**
 * Whether a plan's `productName` allows the document-sharing ("Connect") integration: only the
 * `zaphire` plan, compared case-insensitively (docs/product.md §6: "productName equals zaphire").
 */
export function allowsDocumentSharing(productName: string | null | undefined): boolean {
  return (productName ?? '').trim().toLowerCase() === DOCUMENT_SHARING_PRODUCT;
}

/**
 * How many Sparks the tenant may have published at once (`limits.deployments.value`): its plan's, the free plan's
 * (one, docs/decisions.md 2026-11-28) only while the trial runs; none once the trial has ended without a paid plan.
 */
export function deploymentLimit(
  tenant: Pick<TenantRow, 'limitDeployments' | 'subscriptionId' | 'trialEndsAt'>,
  now = new Date(),
): number {
  return trialEnded(tenant, now) ? 0 : tenant.limitDeployments;
}

/**
 * Gates of the user's plan that are not counters (the counted limits — Sparks, documents,
 * deployments — are enforced where the row is written, under a lock). The plan is the tenant's plan
 * in the catalogue (`BillingRepository.planOfUser`), never a constant.
 */
export class PlanGates {
  constructor(private readonly billing: BillingRepository) {}

  /** True when the user's plan is `zaphire`. */
  async documentSharing(userId: string): Promise<boolean> {
    return allowsDocumentSharing((await this.billing.planOfUser(userId))?.productName);
  }

  /**
   * For the document-sharing routes: passes on the `zaphire` plan, otherwise throws
   * `DOCUMENT_SHARING_PLAN` (402, translated: "…part of the Zaphire plan…").
   */
  async assertDocumentSharing(userId: string): Promise<void> {
    if (!(await this.documentSharing(userId))) throw DomainError.of('DOCUMENT_SHARING_PLAN');
  }
}
