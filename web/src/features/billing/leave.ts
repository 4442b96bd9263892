/** Leaves the app for a payment provider's page (Stripe Checkout, the Customer Portal). A module of its own so that tests can stand in for it. */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
