import { Module } from '@nestjs/common';
import { DevController } from './dev.controller';

/** GET /dev/outbox: the e-mails the embedded stack did not send (DEV_OUTBOX on, this machine only). */
@Module({ controllers: [DevController] })
export class DevModule {}
