/**
 * The rules shared by the screens and the server (docs/product.md §5), free of zod so that the web app can
 * import them without the schema library (`@sparks/contracts/rules`).
 */

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** What a user gets when neither their setting nor their browser names a language we speak. */
export const FALLBACK_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

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

/** The reset password's rule besides the strength criteria: no spaces (nor any other whitespace). */
export function hasNoSpaces(password: string): boolean {
  return !/\s/.test(password);
}

/** Reset: 8–100 characters with a digit, a lowercase, an uppercase, a special character and no spaces. */
export function isValidResetPassword(password: string): boolean {
  const c = passwordCriteria(password);
  return c.length && c.digit && c.lower && c.upper && c.special && hasNoSpaces(password);
}

/** Register: the hint's rules — at least 8, upper and lower case, a special character. */
export function isStrongEnoughForRegister(password: string): boolean {
  const c = passwordCriteria(password);
  return password.length >= PASSWORD_MIN && c.lower && c.upper && c.special;
}

// — sparks —

/**
 * A user pins at most 4 Sparks; a fifth pin is refused with PIN_LIMIT. docs/product.md §9: the sidebar's pinned strip shows
 * them all.
 */
export const MAX_PINNED_SPARKS = 4;

// — uploads —

/** docs/product.md §5: the chat upload takes PDF files, known by this type (or by their name). */
export const PDF_MIME = 'application/pdf';

// — chats —

/** docs/product.md §4: what a client sends to open a chat, and what a restarted test begins with. */
export const START_KEYWORD = 'inicio';

/**
 * docs/product.md §4: the start keywords ('inicio', 'inicio en {language}', 'start in {language}', any case):
 * they open a chat (the assistant greets) and are never shown in the history, nor counted as questions (the pattern
 * of `analytics_is_question`, migration 0024; change them together).
 */
export function isStartKeyword(text: string): boolean {
  return /^(inicio|inicio en [\p{L}-]+|start in [\p{L}-]+)$/u.test(text.trim().toLowerCase());
}

// — search —

/** The PostgreSQL text-search configuration that indexes and searches text of a language. */
export type TextSearchConfig = 'spanish' | 'english';
export const TEXT_SEARCH_CONFIGS: readonly TextSearchConfig[] = ['spanish', 'english'];
export const textSearchConfig = (language: Language): TextSearchConfig => (language === 'es' ? 'spanish' : 'english');

// — objectives —

/** The pages with an objectives panel of their own; any other key names a Spark (its id). */
export const OBJECTIVES_PAGES = ['deploy', 'profile', 'billing'] as const;
export type ObjectivesPage = (typeof OBJECTIVES_PAGES)[number];

/** Whose objectives: a page's, or a Spark's. */
export type ObjectivesScope = { kind: 'page'; page: ObjectivesPage } | { kind: 'spark'; sparkId: string };

export const isObjectivesPage = (value: string): value is ObjectivesPage =>
  (OBJECTIVES_PAGES as readonly string[]).includes(value);

/**
 * docs/product.md §2: which objectives a key names (the `{key}` of GET /objectives/{key}). 'profile-menu'
 * (the profile menu's panel) is the profile page's.
 */
export function objectivesScope(key: string): ObjectivesScope {
  const page = key === 'profile-menu' ? 'profile' : key;
  return isObjectivesPage(page) ? { kind: 'page', page } : { kind: 'spark', sparkId: key };
}

/** The key under which a scope's objectives are kept and fetched. */
export const objectivesKey = (scope: ObjectivesScope): string => (scope.kind === 'page' ? scope.page : scope.sparkId);

/** docs/product.md §9: credit packs are shown 4 per page, sorted by interactions. */
export const CREDIT_PACKS_PER_PAGE = 4;

/** Longest owner's answer to an unanswered question (characters) and the longest wording of its question. */
export const MAX_OWNER_ANSWER_LENGTH = 2000;
export const MAX_OWNER_QUESTION_LENGTH = 500;

/** Longest comment an owner or a visitor adds to a rating of an answer (characters, issue 35). */
export const MAX_FEEDBACK_COMMENT_LENGTH = 500;

/** How many answer checks a Spark keeps (issue 35 item 3): each is asked again whenever its knowledge changes. */
export const MAX_CHECKS_PER_SPARK = 50;

/**
 * How many transcripts of judged tests a Spark keeps (issue 35 item 2): keeping one more deletes the oldest (by when
 * it was judged).
 */
export const MAX_TRANSCRIPTS_PER_SPARK = 20;

/**
 * The answers that can be rated, by the answer engine's kind (`data.answer`): an answer from the documents and the
 * "not covered" reply. Not a greeting's small talk, not a failure. Also what analytics counts as an answer: the
 * database's analytics triggers (migration 0024) name the same kinds; change them together.
 */
export const RATEABLE_ANSWER_KINDS: readonly string[] = ['answer', 'notCovered'];
export const isRateableAnswerKind = (kind: unknown): boolean =>
  typeof kind === 'string' && RATEABLE_ANSWER_KINDS.includes(kind);

/** The query the browser comes back with after connecting Microsoft 365 (docs/product.md §2, spelled as the specification spells it). */
export const SHAREPOINT_CONNECTED_QUERY = 'sharepoint-conected';

/** docs/product.md §5: the chat upload takes PDF files of at most 10 MB (10 × 1024 × 1024 bytes). */
export const MAX_UPLOAD_MB = 10;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;

/** The longest chat message a user or a visitor may send, in characters. */
export const MAX_MESSAGE_LENGTH = 4000;

/** From this length on, the app's and the widget's message boxes show how long the message is (90 % of the limit). */
export const MESSAGE_LENGTH_SHOWN_FROM = Math.floor(MAX_MESSAGE_LENGTH * 0.9);

/** Website visitors' conversations are kept this many days after their last message unless the owner says otherwise (issue 30). */
export const VISITOR_RETENTION_DEFAULT_DAYS = 90;
/** The range the owner may set it in, on /deploy. */
export const VISITOR_RETENTION_MIN_DAYS = 1;
export const VISITOR_RETENTION_MAX_DAYS = 730;

/**
 * How many visitor messages a published Spark's widget answers in a day (UTC) unless its owner says otherwise
 * (issue 30): enough for a small business's site, and a third of the smallest paid plan's month, so that one
 * abuser cannot empty a plan in a day. The owner sets it on /deploy within this range.
 */
export const DEPLOYMENT_DAILY_LIMIT_DEFAULT = 200;
export const DEPLOYMENT_DAILY_LIMIT_MIN = 1;
export const DEPLOYMENT_DAILY_LIMIT_MAX = 10_000;

/** How long the e-mailed link to an account's export works (and the zip is kept), in days. */
export const EXPORT_LINK_DAYS = 7;

/** Deleting an account asks the user to type their e-mail address: the same rule on the screen and the server. */
export function confirmsDeletion(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.trim().toLowerCase() && email.trim() !== '';
}
