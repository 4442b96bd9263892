import { applyDecorators, type PipeTransform } from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
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
    if (!result.success) throw new DomainError(400, toDetails(result.error));
    return result.data;
  }
}

export function jsonSchema(schema: z.ZodType): SchemaObject {
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
