import fs from 'node:fs';
import path from 'node:path';

/** One line of the scoreboard: a kind of attack, how many attempts were made and how they ended. */
export interface CaseResult {
  file: string;
  name: string;
  tried: number;
  passed: number;
  failed: number;
}

/**
 * The run's scoreboard: one JSON line per case, appended by the test files (each in its own module
 * registry, possibly its own process) and printed by the project's global teardown. It lives in the
 * run's scratch folder, which the integration teardown removes.
 */
function scoreboardFile(): string {
  if (process.env.SPARKS_IT_SCOREBOARD) return process.env.SPARKS_IT_SCOREBOARD;
  const storage = process.env.STORAGE_DIR;
  if (!storage) throw new Error('the security tests run through jest --selectProjects security (global setup missing)');
  return path.join(path.dirname(storage), 'security-scoreboard.jsonl');
}

function record(result: CaseResult): void {
  const file = scoreboardFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${JSON.stringify(result)}\n`);
}

/** What a response looked like, for a failure message. */
export function describeResponse(res: { status: number; text?: string; body?: unknown }): string {
  const text = res.text ?? (res.body === undefined ? '' : JSON.stringify(res.body));
  return `${res.status} ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** The attempts of one case: each is checked on its own, and every failed one is named. */
export class Tally {
  tried = 0;
  readonly failures: string[] = [];

  /** Counts one attempt; `ok` false records it as failed with what was seen. */
  check(label: string, ok: boolean, seen = ''): boolean {
    this.tried += 1;
    if (!ok) this.failures.push(seen ? `${label} → ${seen}` : label);
    return ok;
  }

  /** One attempt whose answer must have one of these statuses. */
  status(label: string, res: { status: number; text?: string; body?: unknown }, allowed: number[]): boolean {
    return this.check(
      label,
      allowed.includes(res.status),
      `expected ${allowed.join(' or ')}, got ${describeResponse(res)}`,
    );
  }
}

/**
 * A case of the scoreboard: a jest test that makes many attempts, records its line whatever
 * happens, and fails when any attempt failed (listing them) or when the case itself threw.
 */
export function probe(name: string, fn: (tally: Tally) => Promise<void> | void, timeoutMs?: number): void {
  it(
    name,
    async () => {
      const tally = new Tally();
      const file = path.basename(expect.getState().testPath ?? 'unknown').replace(/\.sec\.ts$/, '');
      try {
        await fn(tally);
      } catch (err) {
        tally.check('the case itself', false, err instanceof Error ? err.message : String(err));
        throw err;
      } finally {
        const failed = tally.failures.length;
        record({ file, name, tried: tally.tried, passed: tally.tried - failed, failed });
      }
      expect(tally.failures).toEqual([]);
      // A case that tried nothing proves nothing.
      expect(tally.tried).toBeGreaterThan(0);
    },
    timeoutMs,
  );
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** The scoreboard as a text table, cases in the order they ran, with a total line. */
export function formatScoreboard(results: CaseResult[]): string {
  const rows = results.map((r) => [
    r.file,
    r.name,
    String(r.tried),
    String(r.passed),
    String(r.failed),
    r.failed === 0 && r.tried > 0 ? 'pass' : 'FAIL',
  ]);
  const total = results.reduce((s, r) => ({ tried: s.tried + r.tried, failed: s.failed + r.failed }), {
    tried: 0,
    failed: 0,
  });
  const header = ['file', 'case', 'tried', 'passed', 'failed', 'result'];
  const footer = [
    '',
    `${results.length} cases`,
    String(total.tried),
    String(total.tried - total.failed),
    String(total.failed),
    results.every((r) => r.failed === 0 && r.tried > 0) ? 'pass' : 'FAIL',
  ];
  const all = [header, ...rows, footer];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const numeric = [false, false, true, true, true, false];
  const line = (row: string[]) => `| ${row.map((c, i) => pad(c, widths[i], numeric[i])).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line), rule, line(footer)].join('\n');
}

export function readScoreboard(): CaseResult[] {
  let file: string;
  try {
    file = scoreboardFile();
  } catch {
    return [];
  }
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as CaseResult);
}
