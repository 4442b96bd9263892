import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run admin -- <args>` (api/src/cli/admin.ts) against the test run's database, as ops would run it
 * beside the app. Answers what it printed; throws when it exits with an error.
 */
export function adminCli(...args: string[]): string {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error('E2E_DATABASE_URL is not set');
  return execFileSync(process.execPath, [path.join(__dirname, '../../api/dist/cli/admin.js'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}
