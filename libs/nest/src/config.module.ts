import { Global, Module } from '@nestjs/common';
import { loadConfig } from '@sparks/core';
import { CONFIG } from './tokens';

/** The configuration, read from the environment once per process and injectable as `CONFIG` everywhere. */
@Global()
@Module({
  providers: [{ provide: CONFIG, useFactory: () => loadConfig() }],
  exports: [CONFIG],
})
export class ConfigModule {}
