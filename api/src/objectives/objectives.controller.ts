import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  objectivesKeyParams,
  objectivesQuery,
  updateObjectiveSchema,
  objectiveGroupViewSchema,
  objectivesMetaSchema,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { Paged } from '../common/paged';
import { ApiZodBody, ApiZodQuery, ZodPipe, ApiZodResponse } from '../common/zod';
import { ObjectivesService } from './objectives.service';

type KeyParams = z.output<typeof objectivesKeyParams>;

@ApiTags('objectives')
@ApiBearerAuth()
@Controller('objectives')
export class ObjectivesController {
  constructor(private readonly objectives: ObjectivesService) {}

  @Get(':key')
  @ApiOperation({
    summary:
      'Objectives of a Spark (key = its id) or of the deploy, profile or billing page: `{ data: [{ _id, title, status, steps }], meta: { progress, title } }`',
  })
  @ApiZodQuery(objectivesQuery)
  @ApiZodResponse(z.array(objectiveGroupViewSchema), { meta: objectivesMetaSchema })
  async list(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(objectivesKeyParams)) p: KeyParams,
    @Query(new ZodPipe(objectivesQuery)) q: z.output<typeof objectivesQuery>,
  ) {
    const r = await this.objectives.list(user.id, p.key, q.lang ?? user.language);
    return new Paged(r.items, r.meta);
  }

  @Patch(':key')
  @ApiOperation({ summary: 'Set a step status: { stepId, status }' })
  @ApiZodBody(updateObjectiveSchema)
  @ApiZodResponse(z.array(objectiveGroupViewSchema), { meta: objectivesMetaSchema })
  async update(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(objectivesKeyParams)) p: KeyParams,
    @Body(new ZodPipe(updateObjectiveSchema)) body: z.output<typeof updateObjectiveSchema>,
    @Query(new ZodPipe(objectivesQuery)) q: z.output<typeof objectivesQuery>,
  ) {
    const r = await this.objectives.update(user.id, p.key, body.stepId, body.status, q.lang ?? user.language);
    return new Paged(r.items, r.meta);
  }
}
