import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module';

describe('WorkerModule', () => {
  it('resolves every provider of the module graph (preview: nothing is built or connected)', async () => {
    const app = await NestFactory.createApplicationContext(WorkerModule, {
      preview: true,
      logger: false,
      abortOnError: false,
    });
    await app.close();
  });
});
