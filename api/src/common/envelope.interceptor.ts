import { SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { Paged } from './paged';

export const RAW_RESPONSE = 'sparks:raw-response';
/** The handler writes its own body (streams, redirects); do not wrap it in `{ data }`. */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    if (raw || context.getType() !== 'http') return next.handle();
    return next.handle().pipe(
      map((data: unknown) => {
        if (!(data instanceof Paged)) return { data: data ?? null };
        const page = data as Paged<unknown, object>;
        return { data: page.items, meta: page.meta };
      }),
    );
  }
}
