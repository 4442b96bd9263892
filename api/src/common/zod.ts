import { applyDecorators, type PipeTransform } from '@nestjs/common';
import { ApiBody, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DomainError, type ErrorDetail } from '@sparks/core';
import { z } from 'zod';
import type { Paged } from './paged';

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
  description?: string;
}

/** What a handler may return for a route that answers `T`: the value itself or its promise. */
type Handler<T> = (...args: never[]) => T | Promise<T>;

/**
 * A method decorator that only fits a handler returning `T`: the compiler checks that what the handler
 * returns is what the route documents (a field missing, renamed or of another type fails `tsc`).
 */
type Answers<T> = <F extends Handler<T>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<F>,
) => void;

/** The items of a list schema (`z.array(item)`), as a handler produces them. */
type ItemOf<S extends z.ZodType> = z.output<S> extends readonly (infer I)[] ? I : never;

/**
 * Documents what a route answers on success: its zod schema from `@sparks/contracts` inside the
 * envelope, `{ data }` (or `{ data, meta }` for a `Paged` list, with `meta`). Every JSON route declares one;
 * the handler must return that type (checked by the compiler), and the integration tests check every
 * real answer against the document (test/integration/support/contract-check.ts).
 */
export function ApiZodResponse<S extends z.ZodType>(schema: S, options?: ZodResponseOptions): Answers<z.output<S>>;
export function ApiZodResponse<S extends z.ZodType, M extends z.ZodType>(
  schema: S,
  options: ZodResponseOptions & { meta: M },
): Answers<Paged<ItemOf<S>, z.output<M> & object>>;
export function ApiZodResponse(
  schema: z.ZodType,
  options: ZodResponseOptions & { meta?: z.ZodType } = {},
): Answers<unknown> {
  const properties: Record<string, SchemaObject> = { data: responseJsonSchema(schema) };
  if (options.meta) properties.meta = responseJsonSchema(options.meta);
  return ApiResponse({
    status: options.status ?? 200,
    description: options.description ?? 'Success',
    schema: { type: 'object', required: Object.keys(properties), properties },
  });
}

/**
 * Documents the JSON answer of a handler that writes its response itself through `@Res()` (it returns
 * nothing, so the compiler cannot check it here: the code that writes the answer types it instead).
 */
export const ApiZodWrittenResponse = (schema: z.ZodType, options: ZodResponseOptions = {}): MethodDecorator =>
  ApiZodResponse(schema, options) as MethodDecorator;

/** Documents an event stream: one JSON object of `schema` per `data:` line (not wrapped in the envelope). */
export const ApiZodEventStream = (schema: z.ZodType, description: string) =>
  applyDecorators(
    ApiProduces('text/event-stream'),
    ApiResponse({ status: 200, description, schema: responseJsonSchema(schema) }),
  );
