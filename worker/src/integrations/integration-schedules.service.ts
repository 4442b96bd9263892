import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { IntegrationsRepository } from '@sparks/db';
import { hasIntegrationSyncScheduler, JobProducer, queueOf, scheduleIntegrationSync } from '@sparks/queues';
import { CONFIG } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';

/**
 * At start, gives each connection that has none its sync scheduler (the api creates it on connect; this
 * covers a connect made while Redis was away, or a Redis that lost its data). Schedulers that exist are left
 * as they are, so that a worker's restart does not start every connection's sync at once.
 */
@Injectable()
export class IntegrationSchedules implements OnApplicationBootstrap {
  private readonly logger = new Logger(IntegrationSchedules.name);

  constructor(
    private readonly integrations: IntegrationsRepository,
    @Inject(INGEST_PRODUCER) private readonly producer: JobProducer,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.ensure();
  }

  async ensure(): Promise<number> {
    try {
      const queue = this.producer.queue(queueOf('integration.sync'));
      let added = 0;
      for (const id of await this.integrations.listIds()) {
        if (await hasIntegrationSyncScheduler(queue, id)) continue;
        await scheduleIntegrationSync(queue, id, this.config.INTEGRATION_SYNC_INTERVAL_SECONDS * 1000);
        added += 1;
      }
      if (added > 0) this.logger.log(`scheduled the sync of ${added} connection(s) that had none`);
      return added;
    } catch (err) {
      this.logger.warn(`could not check the connections' sync schedulers: ${String(err)}`);
      return 0;
    }
  }
}
