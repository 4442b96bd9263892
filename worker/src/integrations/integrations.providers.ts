import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { IntegrationsRepository } from '@sparks/db';
import { MicrosoftGraph } from '@sparks/knowledge';
import { CONFIG } from '@sparks/nest';
import { IntegrationSchedules } from './integration-schedules.service';
import { IntegrationSyncJob } from './integration-sync.job';
import { MICROSOFT } from './tokens';

import { ImportItemJob } from './import-item.job';

/** Document sharing (issue 20) in the worker: Microsoft Graph per connection, the import and sync jobs, the sync's schedulers. */
export const INTEGRATION_PROVIDERS: Provider[] = [
  {
    provide: MICROSOFT,
    inject: [CONFIG, IntegrationsRepository],
    useFactory: (c: AppConfig, repo: IntegrationsRepository) => new MicrosoftGraph(c, repo),
  },
  IntegrationSyncJob,
  IntegrationSchedules,
  ImportItemJob,
];
