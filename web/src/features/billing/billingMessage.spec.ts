import { billingState, checkoutResult, takeBillingMessage } from './billingMessage';

describe('the message handed to the billing assistant', () => {
  beforeEach(() => sessionStorage.clear());

  it('is sent once per navigation, again on a second render, not after a reload', () => {
    const state = billingState('I want to start a plan');
    expect(takeBillingMessage(state)).toBe('I want to start a plan');
    expect(takeBillingMessage(state)).toBe('I want to start a plan');
    // A reload: a fresh module, the same history state, the same session storage.
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fresh = require('./billingMessage') as typeof import('./billingMessage');
      expect(fresh.takeBillingMessage(state)).toBeUndefined();
    });
  });

  it('gives every navigation its own message', () => {
    expect(takeBillingMessage(billingState('a'))).toBe('a');
    expect(takeBillingMessage(billingState('a'))).toBe('a');
  });

  it('ignores a state that is not one', () => {
    expect(takeBillingMessage(null)).toBeUndefined();
    expect(takeBillingMessage({ billingMessage: { id: 1, text: 'x' } })).toBeUndefined();
    expect(takeBillingMessage(billingState(undefined))).toBeUndefined();
  });

  it('carries a checkout result', () => {
    const result = { status: 'paid' as const, mode: 'subscription' as const, productName: 'Ruby' };
    expect(checkoutResult(billingState(undefined, result))).toEqual(result);
    expect(checkoutResult({ checkout: { status: 'weird' } })).toBeUndefined();
  });
});
