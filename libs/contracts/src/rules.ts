/**
 * The rules shared by the screens and the server (spec §5), free of zod so that the web app can
 * import them without the schema library (`@sparks/contracts/rules`).
 */

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PASSWORD_MIN = 8;
export const RESET_PASSWORD_MAX = 100;
export const CODE_LENGTH = 6;
export const RESEND_COOLDOWN_SECONDS = 30;

/** "Contains @" is the spec's rule for login/register; the forgot-password form wants a basic pattern. */
export const hasAt = (email: string) => email.includes('@');
export const BASIC_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export const SPECIAL_CHAR = /[^A-Za-z0-9\s]/;

/** The criteria of the reset strength meter: length, digit, lowercase, uppercase, special. */
export function passwordCriteria(password: string) {
  return {
    length: password.length >= PASSWORD_MIN && password.length <= RESET_PASSWORD_MAX,
    digit: /\d/.test(password),
    lower: /[a-z]/.test(password),
    upper: /[A-Z]/.test(password),
    special: SPECIAL_CHAR.test(password),
  };
}

export type Strength = 'notStrong' | 'normal' | 'strong' | 'veryStrong';

/** Not Strong for 1–2 criteria, Normal for 3, Strong for 4, Very Strong for 5. */
export function passwordStrength(password: string): { met: number; strength: Strength | null } {
  const met = Object.values(passwordCriteria(password)).filter(Boolean).length;
  const strength =
    met === 0 ? null : met <= 2 ? 'notStrong' : met === 3 ? 'normal' : met === 4 ? 'strong' : 'veryStrong';
  return { met, strength };
}

/** Reset: 8–100 characters with a digit, a lowercase, an uppercase, a special character and no spaces. */
export function isValidResetPassword(password: string): boolean {
  const c = passwordCriteria(password);
  return c.length && c.digit && c.lower && c.upper && c.special && !/\s/.test(password);
}

/** Register: the hint's rules — at least 8, upper and lower case, a special character. */
export function isStrongEnoughForRegister(password: string): boolean {
  const c = passwordCriteria(password);
  return password.length >= PASSWORD_MIN && c.lower && c.upper && c.special;
}
