import { Module } from '@nestjs/common';
import { SparksModule } from '../sparks/sparks.module';
import { ObjectivesController } from './objectives.controller';
import { ObjectivesService } from './objectives.service';

/** The objectives (steps of the builder's flows) of a user or a Spark: GET and PATCH /objectives/:key. */
@Module({
  imports: [SparksModule],
  controllers: [ObjectivesController],
  providers: [ObjectivesService],
})
export class ObjectivesModule {}
