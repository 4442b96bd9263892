import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '@sparks/core';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Lets through only requests whose TCP peer is this machine (proxy headers are not trusted). */
@Injectable()
export class LocalOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    // Answer as if the route did not exist: nothing to learn from outside.
    if (!LOOPBACK.test(req.socket.remoteAddress ?? '')) throw DomainError.notFound();
    return true;
  }
}
