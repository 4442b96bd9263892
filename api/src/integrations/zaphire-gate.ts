import { DomainError } from '@sparks/core';
import type { AccountsRepository } from '@sparks/db';

/** Spec §6: the document-sharing integration belongs to the plan whose productName is zaphire (any case). */
export function isZaphire(productName: string | null | undefined): boolean {
  return (productName ?? '').trim().toLowerCase() === 'zaphire';
}

/** Throws 402 DOCUMENT_SHARING_PLAN unless the user's tenant is on zaphire. */
export async function requireZaphire(accounts: AccountsRepository, userId: string): Promise<void> {
  const [tenant] = await accounts.tenantsOf(userId);
  if (!isZaphire(tenant?.productName)) throw DomainError.of('DOCUMENT_SHARING_PLAN');
}
