import type { Provider } from '@nestjs/common';
import { ExportAccountJob } from './export-account.job';
import { PurgeAccountJob } from './purge-account.job';
import { RetentionSweepJob } from './retention-sweep.job';

/** The owner's and visitors' data rights in the worker (issue 30): exports, purges of deleted accounts, retention. */
export const PRIVACY_PROVIDERS: Provider[] = [ExportAccountJob, PurgeAccountJob, RetentionSweepJob];
