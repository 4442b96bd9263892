import { runMigrations } from './migrate';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set. `npm start` migrates the embedded database by itself.');
  process.exit(1);
}
runMigrations(url).then(
  () => console.log('Migrations applied.'),
  (err: unknown) => {
    console.error('Migration failed:', err);
    process.exit(1);
  },
);
