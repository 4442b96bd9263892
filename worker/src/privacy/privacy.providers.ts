import type { Provider } from '@nestjs/common';
import { ExportAccountJob } from './export-account.job';
import { RetentionSweepJob } from './retention-sweep.job';

/** The owner's data rights in the worker (issue 30): exports, and the sweep of expired ones. */
export const PRIVACY_PROVIDERS: Provider[] = [ExportAccountJob, RetentionSweepJob];
