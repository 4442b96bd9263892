import { SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { Paged } from './paged';
import { badText, findBadQueryEscape, findBadText } from './text-input';

const RAW_RESPONSE = 'sparks:raw-response';
/** The handler writes its own body (streams, redirects); do not wrap it in `{ data }`. */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

/**
 * Refuses a path parameter, query parameter or JSON body that carries a NUL or a lone surrogate
 * (400 INVALID_CHARACTERS naming the field), before any pipe or handler sees it. Multipart bodies are
 * read by their handler; `receiveUpload` applies the same rule.
 */
function refuseBadText(req: Request): void {
  const query = findBadQueryEscape(req.originalUrl ?? req.url);
  if (query !== undefined) throw badText(query);
  for (const part of [req.params, req.query, req.body] as unknown[]) {
    const field = findBadText(part);
    if (field !== undefined) throw badText(field);
  }
}

/**
 * The one global interceptor (each interceptor costs an async-context bind and an rxjs stage on every
 * request, bench/RESULTS.md "The request path"). On every route, so a new route is covered without
 * anyone remembering to: first the text-input check (it runs after the guards, so an anonymous caller
 * still gets 401 first), then the `{ data }` / `{ data, meta }` envelope around the handler's answer,
 * unless the route is @RawResponse().
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    refuseBadText(context.switchToHttp().getRequest<Request>());
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    if (raw) return next.handle();
    return next.handle().pipe(
      map((data: unknown) => {
        if (!(data instanceof Paged)) return { data: data ?? null };
        const page = data as Paged<unknown, object>;
        return { data: page.items, meta: page.meta };
      }),
    );
  }
}
