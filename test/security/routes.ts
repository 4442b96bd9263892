import type { INestApplication } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '../../api/src/auth/public.decorator';

/** A route the running app answers: its method and its Express path (`/api/v1/sparks/:sparkId`). */
export interface Endpoint {
  method: string;
  path: string;
  /** @Public() on the handler or its controller; undefined for a route that is not a Nest handler. */
  isPublic: boolean | undefined;
}

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Nest registers a middleware mounted with forRoutes for every method; an endpoint has a few. */
const MIDDLEWARE_METHODS = 10;

function normalize(path: string): string {
  return `/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
}

/** Every handler of every controller, keyed `METHOD /path`, with whether it is open. */
function nestHandlers(app: INestApplication, prefix: string): Map<string, boolean> {
  const reflector = new Reflector();
  const handlers = new Map<string, boolean>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const bases = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat();
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
        for (const base of bases) {
          for (const path of [paths].flat()) {
            handlers.set(`${method} ${normalize(`${prefix}/${base ?? ''}/${path}`)}`, isPublic);
          }
        }
      }
    }
  }
  return handlers;
}

/**
 * The routes of the running app, read from its Express router (what is really served), each
 * matched with its Nest handler for @Public(). Throws when a Nest handler is not served at the
 * path its metadata gives, since the matrix would then probe the wrong address.
 */
export function listEndpoints(app: INestApplication, prefix: string): Endpoint[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
  const handlers = nestHandlers(app, prefix);
  const endpoints: Endpoint[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m] && m !== '_all');
    if (methods.length > MIDDLEWARE_METHODS) continue;
    for (const m of methods) {
      const method = m.toUpperCase();
      const key = `${method} ${layer.route.path}`;
      endpoints.push({ method, path: layer.route.path, isPublic: handlers.get(key) });
      handlers.delete(key);
    }
  }
  if (handlers.size > 0) {
    throw new Error(`Nest handlers not found in the Express router: ${[...handlers.keys()].join(', ')}`);
  }
  return endpoints;
}

export interface JsonSchema {
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  type?: string | string[];
  maxLength?: number;
  enum?: unknown[];
}

/** Dotted paths of the uuid fields of a JSON schema. */
function uuidFields(schema: JsonSchema | undefined, at = ''): string[] {
  if (!schema) return [];
  const found = schema.format === 'uuid' ? [at] : [];
  for (const sub of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    found.push(...uuidFields(sub, at));
  }
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    found.push(...uuidFields(sub, at ? `${at}.${name}` : name));
  }
  if (schema.items) found.push(...uuidFields(schema.items, at));
  return [...new Set(found)];
}

export interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** What the OpenAPI document says a route takes: its uuid fields by place, and whether it has a body. */
export interface Declared {
  ids: Array<{ in: 'query' | 'body' | 'form'; name: string }>;
  hasBody: boolean;
}

/** The OpenAPI operation of a route. */
export function operationOf(openapi: unknown, endpoint: Endpoint): Operation | undefined {
  const paths = (openapi as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  return paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
}

export function declaredInputs(openapi: unknown, endpoint: Endpoint): Declared {
  const op = operationOf(openapi, endpoint);
  if (!op) return { ids: [], hasBody: false };
  const ids: Declared['ids'] = [];
  for (const p of op.parameters ?? []) {
    if (p.in === 'query' && uuidFields(p.schema).length > 0) ids.push({ in: 'query', name: p.name });
  }
  const content = op.requestBody?.content ?? {};
  for (const name of uuidFields(content['application/json']?.schema)) ids.push({ in: 'body', name });
  for (const name of uuidFields(content['multipart/form-data']?.schema)) ids.push({ in: 'form', name });
  return { ids, hasBody: op.requestBody !== undefined };
}
