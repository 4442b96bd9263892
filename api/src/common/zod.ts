import { applyDecorators, type PipeTransform } from '@nestjs/common';
import { ApiBody, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DomainError, type ErrorDetail } from '@sparks/core';
import { z } from 'zod';

function toDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || undefined;
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    const custom =
      issue.code === 'custom' ? (issue.params as { code?: ErrorDetail['code'] } | undefined)?.code : undefined;
    return { code: custom ?? (missing ? 'REQUIRED' : 'INVALID_PARAMS'), field };
  });
}

/** Validates and parses a body, query or params object with a zod schema from `@sparks/contracts`. */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value ?? {});
    if (!result.success) throw new DomainError(toDetails(result.error));
    return result.data;
  }
}

function jsonSchema(schema: z.ZodType): SchemaObject {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as SchemaObject;
}

/** Documents a zod body in the OpenAPI document (validation itself is the ZodPipe's job). */
export const ApiZodBody = (schema: z.ZodType) => ApiBody({ schema: jsonSchema(schema) });

export const ApiZodQuery = (schema: z.ZodObject) =>
  applyDecorators(
    ...Object.entries(schema.shape).map(([name, field]) =>
      ApiQuery({
        name,
        required: !(field as z.ZodType).safeParse(undefined).success,
        schema: jsonSchema(field as z.ZodType),
      }),
    ),
  );

/** A schema of what a route answers, as OpenAPI 3.0 (the document's version) sees it. */
function responseJsonSchema(schema: z.ZodType): SchemaObject {
  return z.toJSONSchema(schema, { io: 'output', target: 'openapi-3.0', unrepresentable: 'any' }) as SchemaObject;
}

export interface ZodResponseOptions {
  /** The success status: 200 unless the route says otherwise (a POST without @HttpCode(200) answers 201). */
  status?: number;
  /** The `meta` beside `data` of a list answered with `Paged`. */
  meta?: z.ZodType;
  description?: string;
}

/**
 * Documents what a route answers on success: its zod schema from `@sparks/contracts` inside the
 * envelope, `{ data }` (or `{ data, meta }` for a `Paged` list). Every JSON route declares one; the
 * integration test contracts.it.ts checks real answers against the document.
 */
export const ApiZodResponse = (schema: z.ZodType, options: ZodResponseOptions = {}) => {
  const properties: Record<string, SchemaObject> = { data: responseJsonSchema(schema) };
  if (options.meta) properties.meta = responseJsonSchema(options.meta);
  return ApiResponse({
    status: options.status ?? 200,
    description: options.description ?? 'Success',
    schema: { type: 'object', required: Object.keys(properties), properties },
  });
};

/** Documents an event stream: one JSON object of `schema` per `data:` line (not wrapped in the envelope). */
export const ApiZodEventStream = (schema: z.ZodType, description: string) =>
  applyDecorators(
    ApiProduces('text/event-stream'),
    ApiResponse({ status: 200, description, schema: responseJsonSchema(schema) }),
  );
