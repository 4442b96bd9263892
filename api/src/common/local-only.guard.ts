import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '@sparks/core';

const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|[\w-]+\.localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/**
 * Headers a proxy adds to say whom it forwards for. Any of them means the TCP peer is not the
 * person asking, whatever address it has.
 */
const PROXY_HEADERS = [
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-original-forwarded-for',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
];

function isProxied(req: Request): boolean {
  return Object.keys(req.headers).some((name) => name.startsWith('x-forwarded-') || PROXY_HEADERS.includes(name));
}

/**
 * Lets through only a request made on this machine for this machine: the TCP peer is loopback, no
 * proxy header says it is relaying someone else, and the Host is a loopback name (a public name
 * means a proxy or a DNS-rebinding page). A proxy that adds no header and keeps a loopback Host
 * cannot be told apart; routes behind this guard must not rely on it alone.
 */
@Injectable()
export class LocalOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const local =
      LOOPBACK_PEER.test(req.socket.remoteAddress ?? '') &&
      !isProxied(req) &&
      LOOPBACK_HOST.test(req.headers.host ?? '');
    // Answer as if the route did not exist: nothing to learn from outside.
    if (!local) throw DomainError.notFound();
    return true;
  }
}
