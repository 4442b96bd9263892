import type { SparkTestView } from '@sparks/contracts';

/** docs/product.md §9: at most 5 tests per Spark. */
export const MAX_TESTS = 5;

/** docs/product.md §9: a test tab shows names of up to 10 characters whole; longer ones are cut to 8 plus an ellipsis. */
const TAB_NAME_MAX = 10;
const TAB_NAME_CUT = 8;

/** docs/product.md §2/§9: the loading overlay stays about 0.8 s after loading ends, fading out meanwhile. */
export const OVERLAY_LINGER_MS = 800;

/** docs/product.md §4/§9: after the test feedback the message is sent into the Spark chat 0.5 s later. */
export const FEEDBACK_SEND_DELAY_MS = 500;

/** docs/product.md §8: the log line of a restart without an active Spark. */
export const NO_ACTIVE_SPARK_LOG = 'activeSparkId is undefined';

/** The server's error code of a sixth test. */
export const TESTS_LIMIT_CODE = 'TESTS_LIMIT';

/** The name a tab shows: whole up to 10 characters (counted as the user sees them), else 8 and '…'. */
export function tabName(name: string): string {
  const characters = Array.from(name);
  if (characters.length <= TAB_NAME_MAX) return name;
  return `${characters.slice(0, TAB_NAME_CUT).join('')}…`;
}

/** docs/product.md §5: a test can be added only while the Spark has 4 or fewer. */
export function canAddTest(count: number): boolean {
  return count <= MAX_TESTS - 1;
}

/** docs/product.md §5: deleting a test needs its name typed exactly (case and spaces included). */
export function deleteConfirmed(typed: string, name: string): boolean {
  return name.length > 0 && typed === name;
}

/**
 * docs/product.md §4 test feedback: the message the Spark's builder chat understands ('yes' → satisfactory). It is a
 * keyword of the builder flow, so it is the same in every language.
 */
export function feedbackMessage(satisfactory: boolean): 'test satisfactory' | 'test not satisfactory' {
  return satisfactory ? 'test satisfactory' : 'test not satisfactory';
}

/**
 * The default name of a new test: `format(n)` ('Test n' / 'Prueba n') with n the number the new test would
 * have, moved on while a test already has that name.
 */
export function defaultTestName(existing: readonly string[], format: (n: number) => string): string {
  const taken = new Set(existing.map((name) => name.trim().toLowerCase()));
  let n = existing.length + 1;
  while (taken.has(format(n).trim().toLowerCase())) n += 1;
  return format(n);
}

export function sparkPath(sparkId: string): string {
  return `/spark/${encodeURIComponent(sparkId)}`;
}

export function testPath(sparkId: string, testId: string): string {
  return `${sparkPath(sparkId)}/test/${encodeURIComponent(testId)}`;
}

export function mobileTestPath(sparkId: string, testId: string): string {
  return `/mobile-test/${encodeURIComponent(sparkId)}/${encodeURIComponent(testId)}`;
}

/**
 * Where to go after deleting `removedId` while it is open: the next tab, else the previous one, else back to
 * the Spark. (Deleting another tab keeps the current one: the caller does not navigate then.)
 */
export function pathAfterDelete(tests: readonly SparkTestView[], removedId: string, sparkId: string): string {
  const index = tests.findIndex((test) => test._id === removedId);
  const rest = tests.filter((test) => test._id !== removedId);
  if (rest.length === 0) return sparkPath(sparkId);
  const next = index === -1 ? rest[0] : (rest[index] ?? rest[rest.length - 1]);
  return testPath(sparkId, next._id);
}

/**
 * A test id that is not among the Spark's tests (deleted, mistyped, of another Spark): the first test, or the
 * Spark page when it has none. `null` when the id is there.
 */
export function redirectForMissingTest(
  tests: readonly SparkTestView[],
  testId: string,
  sparkId: string,
): string | null {
  if (tests.some((test) => test._id === testId)) return null;
  return tests.length > 0 ? testPath(sparkId, tests[0]._id) : sparkPath(sparkId);
}
