import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  documentPagesQuery,
  documentParams,
  loadDocMessageSchema,
  MAX_UPLOAD_MB,
  sparkIdParams,
  uploadResultSchema,
  documentViewSchema,
  documentPagesViewSchema,
  documentDeletedSchema,
  loadDocMessageResultSchema,
  updateDocumentSchema,
  DOCUMENT_TITLE_MAX,
} from '@sparks/contracts';
import type { Request } from 'express';
import { z } from 'zod';
import { CurrentUser, type AuthUser } from '../auth/public.decorator';
import { ApiZodBody, ApiZodQuery, ZodPipe, ApiZodResponse } from '../common/zod';
import { DocumentsService } from './documents.service';
import { UploadService } from './upload.service';

type SparkParams = z.output<typeof sparkIdParams>;
type DocParams = z.output<typeof documentParams>;

@ApiTags('knowledge')
@ApiBearerAuth()
@Controller()
export class KnowledgeController {
  constructor(
    private readonly uploads: UploadService,
    private readonly documents: DocumentsService,
  ) {}

  @Post('bucket')
  @ApiOperation({
    summary: `Upload a PDF, a Word document or text (at most ${MAX_UPLOAD_MB} MB) to a Spark: { _id, bucketFileId, name, status }`,
    description:
      'Multipart fields: `file`, `sparkId`, optional `conversationId` and `name`. A PDF is known by its bytes; a Word ' +
      'document by its name `.docx` and its ZIP bytes; text by its name `.txt`, `.md` or `.markdown` and UTF-8 content ' +
      'without NUL. 415 INCORRECT_FORMAT for anything else, 413 FILE_TOO_LARGE past 10 MB (refused while streaming), ' +
      '402 DOCUMENT_LIMIT at the plan limit. ' +
      'The same file again in the same Spark answers the existing document (`duplicate: true`).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'sparkId'],
      properties: {
        file: { type: 'string', format: 'binary' },
        sparkId: { type: 'string', format: 'uuid' },
        conversationId: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
      },
    },
  })
  @ApiZodResponse(uploadResultSchema, { status: 201 })
  upload(@CurrentUser() user: AuthUser, @Req() req: Request) {
    return this.uploads.upload(req, user);
  }

  @Get('sparks/:sparkId/documents')
  @ApiOperation({
    summary: "The Spark's documents, newest first, with their status (pending, inProgress, completed, error)",
  })
  @ApiZodResponse(z.array(documentViewSchema))
  list(@CurrentUser() user: AuthUser, @Param(new ZodPipe(sparkIdParams)) p: SparkParams) {
    return this.documents.list(user.id, p.sparkId, user.language);
  }

  @Get('sparks/:sparkId/documents/:documentId')
  @ApiOperation({ summary: 'One document of the Spark' })
  @ApiZodResponse(documentViewSchema)
  get(@CurrentUser() user: AuthUser, @Param(new ZodPipe(documentParams)) p: DocParams) {
    return this.documents.get(user.id, p.sparkId, p.documentId, user.language);
  }

  @Patch('sparks/:sparkId/documents/:documentId')
  @ApiOperation({
    summary: 'Give a document the title customers read as its source in answers ("Menu, page 2")',
    description:
      `\`{ title }\`: at most ${DOCUMENT_TITLE_MAX} characters, on one line; null or blank gives back the default, ` +
      'the file name without its extension. Answers the document.',
  })
  @ApiZodBody(updateDocumentSchema)
  @ApiZodResponse(documentViewSchema)
  update(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(documentParams)) p: DocParams,
    @Body(new ZodPipe(updateDocumentSchema)) body: z.output<typeof updateDocumentSchema>,
  ) {
    return this.documents.setTitle(user.id, p.sparkId, p.documentId, body.title, user.language);
  }

  @Get('sparks/:sparkId/documents/:documentId/pages')
  @ApiOperation({
    summary: 'What the Spark read, page by page; pages with no text are flagged (`noText`, `emptyPages`)',
  })
  @ApiZodQuery(documentPagesQuery)
  @ApiZodResponse(documentPagesViewSchema)
  pages(
    @CurrentUser() user: AuthUser,
    @Param(new ZodPipe(documentParams)) p: DocParams,
    @Query(new ZodPipe(documentPagesQuery)) q: z.output<typeof documentPagesQuery>,
  ) {
    return this.documents.pages(user.id, p.sparkId, p.documentId, q, user.language);
  }

  @Delete('sparks/:sparkId/documents/:documentId')
  @ApiOperation({ summary: 'Delete a document with its chunks and its stored file' })
  @ApiZodResponse(documentDeletedSchema)
  remove(@CurrentUser() user: AuthUser, @Param(new ZodPipe(documentParams)) p: DocParams) {
    return this.documents.remove(user.id, p.sparkId, p.documentId);
  }

  @Post('llm/load-doc-message')
  @HttpCode(200)
  @ApiOperation({ summary: 'Whether a chat message is a document upload: { isDocumentLoadMessage }' })
  @ApiZodBody(loadDocMessageSchema)
  @ApiZodResponse(loadDocMessageResultSchema)
  loadDocMessage(
    @CurrentUser() user: AuthUser,
    @Body(new ZodPipe(loadDocMessageSchema)) body: z.output<typeof loadDocMessageSchema>,
  ) {
    return this.documents.isDocumentLoadMessage(user.id, body);
  }
}
