import { DomainError } from '@sparks/core';
import type { BillingRepository } from '@sparks/db';
import { allowsDocumentSharing, PlanGates } from './plans';

const gates = (productName: string | undefined) =>
  new PlanGates({
    planOfUser: jest.fn(() => Promise.resolve(productName === undefined ? undefined : { productName })),
  } as unknown as BillingRepository);

describe('the document-sharing gate', () => {
  it('opens only for zaphire, whatever its case', () => {
    expect(allowsDocumentSharing('Zaphire')).toBe(true);
    expect(allowsDocumentSharing('ZAPHIRE')).toBe(true);
    expect(allowsDocumentSharing(' zaphire ')).toBe(true);
    for (const name of ['Free Plan', 'Ruby', 'Emerald', 'zaphire plus', '', null, undefined]) {
      expect(allowsDocumentSharing(name)).toBe(false);
    }
  });

  it('refuses the other plans with DOCUMENT_SHARING_PLAN', async () => {
    await expect(gates('Zaphire').assertDocumentSharing('u1')).resolves.toBeUndefined();
    for (const name of ['Ruby', 'Free Plan', undefined]) {
      const err = await gates(name)
        .assertDocumentSharing('u1')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('DOCUMENT_SHARING_PLAN');
    }
  });
});
