import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { IntegrationsRepository } from '@sparks/db';
import { MicrosoftGraph } from '@sparks/knowledge';
import { CONFIG } from '@sparks/nest';

/** The Microsoft identity platform and Graph as this server is configured for them (null pieces when it is not). */
@Injectable()
export class MicrosoftService extends MicrosoftGraph {
  constructor(@Inject(CONFIG) config: AppConfig, repo: IntegrationsRepository) {
    super(config, repo);
  }
}
