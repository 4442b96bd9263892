import {
  BASIC_EMAIL,
  CODE_LENGTH,
  hasAt,
  isStrongEnoughForRegister,
  PASSWORD_MIN,
  SPECIAL_CHAR,
} from '@sparks/contracts/rules';

/**
 * Client-side checks of docs/product.md §5, run before calling the server. Each answers the catalogue key of its
 * message (in the `auth` namespace) or null.
 */
export type ValidationKey =
  | 'validation.required'
  | 'validation.invalidEmail'
  | 'validation.min'
  | 'validation.invalidParams'
  | 'validation.codeLength'
  | 'validation.same'
  | 'validation.resetRules'
  | 'validation.privacy'
  | 'errors.PASSWORD_NOT_STRONG';

/** Login and register e-mail: required, must contain @. */
export function checkEmail(email: string): ValidationKey | null {
  if (!email.trim()) return 'validation.required';
  if (!hasAt(email)) return 'validation.invalidEmail';
  return null;
}

/** Login password: required, at least 8 characters. */
export function checkLoginPassword(password: string): ValidationKey | null {
  if (!password) return 'validation.required';
  if (password.length < PASSWORD_MIN) return 'validation.min';
  return null;
}

/** Register password: the login rules plus the hint's upper and lower case and a special character. */
export function checkRegisterPassword(password: string): ValidationKey | null {
  return checkLoginPassword(password) ?? (isStrongEnoughForRegister(password) ? null : 'errors.PASSWORD_NOT_STRONG');
}

/** Forgot-password e-mail: a basic e-mail pattern, else "invalid parameters". */
export function checkForgotEmail(email: string): ValidationKey | null {
  if (!email.trim()) return 'validation.required';
  return BASIC_EMAIL.test(email.trim()) ? null : 'validation.invalidParams';
}

/** Confirmation code: required; six digits. */
export function checkCode(code: string): ValidationKey | null {
  if (!code.trim()) return 'validation.required';
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code.trim()) ? null : 'validation.codeLength';
}

/** The register hint list, ticked one by one as the password meets them. */
export function registerHints(password: string) {
  return {
    required: password.length > 0,
    min: password.length >= PASSWORD_MIN,
    case: /[a-z]/.test(password) && /[A-Z]/.test(password),
    special: SPECIAL_CHAR.test(password),
  };
}
