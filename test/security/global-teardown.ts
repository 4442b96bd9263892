import integrationTeardown from '../integration/global-teardown';
import { formatScoreboard, readScoreboard } from './scoreboard';

/** Prints the scoreboard of the run, then tears down what the integration global setup started. */
export default async function globalTeardown(): Promise<void> {
  const results = readScoreboard();
  if (results.length > 0) process.stdout.write(`\nSecurity scoreboard\n${formatScoreboard(results)}\n\n`);
  await integrationTeardown();
}
