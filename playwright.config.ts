import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
/**
 * Where e2e/document-sharing.spec.ts starts its local Microsoft identity platform and Graph
 * (test/integration/support/graph-server.ts): the app is configured for Microsoft against it. Nothing listens
 * there during the other specs, which never connect.
 */
export const graphPort = Number(
  process.env.E2E_GRAPH_PORT ?? (port + 20_000 <= 65_535 ? port + 20_000 : port - 20_000),
);
const graphBase = `http://127.0.0.1:${graphPort}`;

/**
 * Browser tests drive Debian's Chromium against the built app, started the way `npm start` starts
 * it but on the test run's PostgreSQL and Redis (scripts/test.mjs prepares them).
 */
export default defineConfig({
  testDir: 'e2e',
  // `npm test -- --skip=wordpress` leaves out the tests that need a local WordPress (scripts/test.mjs says so).
  testIgnore: process.env.E2E_SKIP_WORDPRESS ? ['**/pulse.spec.ts'] : [],
  outputDir: 'test-results',
  // Tests, not files, are shared out among the workers, against the one app (each test signs up its own users). Three
  // at a time on two cores: with two, a third of the machine stayed idle while tests waited on the assistant; with
  // four, Chromium (three quarters of the tier's CPU: renderers, GPU and browser processes) kept both cores full and
  // every test slower (bench/RESULTS.md). Files whose tests share one local server of their own (WordPress, the
  // Microsoft one) keep them on one worker (`mode: 'default'`). E2E_WORKERS=1 runs them one by one.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // A retry is a defect to fix, not a pass: in CI a test that fails and then passes on its retry is reported as
  // flaky and fails the run (failOnFlakyTests), after the retry has said whether it is flaky or broken.
  retries: process.env.CI ? 1 : 0,
  failOnFlakyTests: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // Recording a trace for every test cost a quarter of the browser tier's CPU (screencast frames drawn and
    // encoded all the time: 261 → 190 CPU s for onboarding + shell, bench/RESULTS.md). In CI a failed test is
    // retried once with its trace; its first failure keeps its screenshot.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } }],
  webServer: {
    command: 'node scripts/start.mjs --no-install --no-build',
    url: `${baseURL}/api/v1/health`,
    timeout: 120_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      REDIS_URL: process.env.E2E_REDIS_URL ?? '',
      QUEUE_PREFIX: `e2e-${port}`,
      DEV_OUTBOX: 'true',
      // The inactive-account dialog names where to ask for help (e2e/support.spec.ts).
      SUPPORT_EMAIL: 'help@sparks.example',
      LOG_LEVEL: 'warn',
      // X-Forwarded-For from the test's own requests names a client (e2e/auth.spec.ts guesses from many
      // addresses); the browser sends none, so it is 127.0.0.1 as before.
      TRUST_PROXY: 'loopback',
      // Every spec's browser is one client IP (127.0.0.1) for the whole run: new widget visitors per IP and hour
      // (20 by default) would be spent by the suite, not by one spec (the limit itself: test/security/trust-edges).
      WIDGET_NEW_VISITORS_IP_HOUR: '1000',
      // Microsoft 365 against the spec's local server (the GraphServer's client and secret; a fixed test key).
      MICROSOFT_CLIENT_ID: 'sparks-graph-client',
      MICROSOFT_CLIENT_SECRET: 'sparks-graph-secret',
      MICROSOFT_LOGIN_URL: graphBase,
      MICROSOFT_GRAPH_URL: `${graphBase}/v1.0`,
      INTEGRATION_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
  },
});
