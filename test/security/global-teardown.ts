import integrationTeardown from '../integration/global-teardown';

/** The integration teardown prints the scoreboard (security cases ran) and stops what global setup started. */
export default async function globalTeardown(): Promise<void> {
  await integrationTeardown();
}
