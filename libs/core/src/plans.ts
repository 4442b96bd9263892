/** Spec §9: every new tenant starts on the Free Plan with a 15-day trial. */
export const TRIAL_DAYS = 15;
export const FREE_PLAN = {
  productName: 'Free Plan',
  // Building and testing are open during the trial; deploying needs a paid plan (deploy greyed out).
  limitDeployments: 0,
  limitInteractions: 100,
} as const;
