// Each test file sees the run's database, Redis and queue prefix through process.env, set by
// global-setup.ts; nothing to do here but fail loudly when that did not happen.
if (!process.env.DATABASE_URL || !process.env.SPARKS_IT_DB) {
  throw new Error('Integration tests run through jest --selectProjects integration (global setup missing).');
}
jest.setTimeout(60_000);
