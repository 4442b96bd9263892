import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  createSparkSchema,
  createTestSchema,
  deleteTestQuery,
  listSparksQuery,
  MAX_TRANSCRIPTS_PER_SPARK,
  renameTestSchema,
  sparkIdParams,
  sparkTestParams,
  testErrorSchema,
  updateSparkSchema,
  sparkViewSchema,
  pageMetaSchema,
  deletedSchema,
  sparkTestViewSchema,
  testErrorReportSchema,
} from '@sparks/contracts';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { Paged } from '../common/paged';
import { ApiZodBody, ApiZodQuery, ZodPipe, ApiZodResponse } from '../common/zod';
import { SparkTestsService } from './spark-tests.service';
import { SparksService } from './sparks.service';

type SparkParams = z.output<typeof sparkIdParams>;
type TestParams = z.output<typeof sparkTestParams>;

@ApiTags('sparks')
@ApiBearerAuth()
@Controller('sparks')
export class SparksController {
  constructor(
    private readonly sparks: SparksService,
    private readonly tests: SparkTestsService,
  ) {}

  @Post()
  @ApiOperation({ summary: "Create a Spark (type DOC) with the owner's language defaults" })
  @ApiZodBody(createSparkSchema)
  @ApiZodResponse(sparkViewSchema, { status: 201 })
  create(
    @CurrentUser() user: AuthUser,
    @Body(new ZodPipe(createSparkSchema)) body: z.output<typeof createSparkSchema>,
  ) {
    return this.sparks.create(user.id, body);
  }

  @Get()
  @ApiOperation({
    summary: 'The Sparks of the signed-in user, newest first: `{ data: [...], meta: { total, page, limit } }`',
  })
  @ApiZodQuery(listSparksQuery)
  @ApiZodResponse(z.array(sparkViewSchema), { meta: pageMetaSchema })
  async list(@CurrentUser() user: AuthUser, @Query(new ZodPipe(listSparksQuery)) q: z.output<typeof listSparksQuery>) {
    const page = await this.sparks.list(user.id, q);
    return new Paged(page.items, page.meta);
  }

  @Get(':sparkId')
  @ApiZodResponse(sparkViewSchema)
  get(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.sparks.get(user.id, p.sparkId);
  }

  @Patch(':sparkId')
  @ApiOperation({ summary: 'Pin/unpin or rename (a blank name is refused)' })
  @ApiZodBody(updateSparkSchema)
  @ApiZodResponse(sparkViewSchema)
  update(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(updateSparkSchema)) body: z.output<typeof updateSparkSchema>,
  ) {
    return this.sparks.update(user.id, p.sparkId, body);
  }

  @Delete(':sparkId')
  @ApiOperation({ summary: 'Delete the Spark with its tests, conversations, documents and chunks' })
  @ApiZodResponse(deletedSchema)
  remove(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.sparks.remove(user.id, p.sparkId);
  }

  // — tests —

  @Post(':sparkId/tests')
  @ApiOperation({ summary: 'Add a test (at most 5: a sixth answers 400 "You can\'t add more than 5 tests")' })
  @ApiZodBody(createTestSchema)
  @ApiZodResponse(sparkTestViewSchema, { status: 201 })
  createTest(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkIdParams)) p: SparkParams,
    @Body(new ZodPipe(createTestSchema)) body: z.output<typeof createTestSchema>,
  ) {
    return this.tests.create(user.id, p.sparkId, body);
  }

  @Get(':sparkId/tests')
  @ApiZodResponse(z.array(sparkTestViewSchema))
  listTests(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.tests.list(user.id, p.sparkId);
  }

  @Get(':sparkId/tests/:testId')
  @ApiZodResponse(sparkTestViewSchema)
  getTest(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkTestParams)) p: TestParams) {
    return this.tests.get(user.id, p.sparkId, p.testId);
  }

  @Patch(':sparkId/tests/:testId')
  @ApiZodBody(renameTestSchema)
  @ApiZodResponse(sparkTestViewSchema)
  renameTest(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: TestParams,
    @Body(new ZodPipe(renameTestSchema)) body: z.output<typeof renameTestSchema>,
  ) {
    return this.tests.rename(user.id, p.sparkId, p.testId, body.name);
  }

  @Delete(':sparkId/tests/:testId')
  @ApiOperation({
    summary: `Delete a test with its conversation. With \`verdict\` (the owner's answer to "Was the test OK?"), a conversation that holds a question is kept as the test's transcript (GET /sparks/{sparkId}/transcripts); a Spark keeps its ${MAX_TRANSCRIPTS_PER_SPARK} newest`,
  })
  @ApiZodQuery(deleteTestQuery)
  @ApiZodResponse(deletedSchema)
  deleteTest(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: TestParams,
    @Query(new ZodPipe(deleteTestQuery)) q: z.output<typeof deleteTestQuery>,
  ) {
    return this.tests.remove(user.id, p.sparkId, p.testId, q.verdict);
  }

  @Post(':sparkId/tests/:testId/error')
  @ApiOperation({ summary: 'Report an error seen in a test' })
  @ApiZodBody(testErrorSchema)
  @ApiZodResponse(testErrorReportSchema, { status: 201 })
  reportError(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(sparkTestParams)) p: TestParams,
    @Body(new ZodPipe(testErrorSchema)) body: z.output<typeof testErrorSchema>,
  ) {
    return this.tests.reportError(user.id, p.sparkId, p.testId, body.error);
  }
}
