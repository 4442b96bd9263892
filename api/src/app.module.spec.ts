import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

describe('AppModule', () => {
  it('resolves every provider of the module graph (preview: nothing is built or connected)', async () => {
    const app = await NestFactory.createApplicationContext(AppModule, {
      preview: true,
      logger: false,
      abortOnError: false,
    });
    await app.close();
  });
});
