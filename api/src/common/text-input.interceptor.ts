import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { badText, findBadQueryEscape, findBadText } from './text-input';

/**
 * Refuses, on every route, a path parameter, query parameter or JSON body that carries a NUL or a
 * lone surrogate (400 INVALID_CHARACTERS naming the field), before any pipe or handler sees it, so a
 * new route is covered without anyone remembering to. It runs after the guards: an anonymous caller
 * still gets 401 first. Multipart bodies are read by their handler; `receiveUpload` applies the same rule.
 */
@Injectable()
export class TextInputInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const req = context.switchToHttp().getRequest<Request>();
      const query = findBadQueryEscape(req.originalUrl ?? req.url);
      if (query !== undefined) throw badText(query);
      for (const part of [req.params, req.query, req.body] as unknown[]) {
        const field = findBadText(part);
        if (field !== undefined) throw badText(field);
      }
    }
    return next.handle();
  }
}
