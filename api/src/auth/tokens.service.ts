import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { LoginTokens, RefreshedTokens } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { AccountsRepository, type UserRow } from '@sparks/db';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { CONFIG, REDIS } from '@sparks/nest';
import { verifyExpiring } from './jwt-options';
import { newSecret, seal, sha256, unseal } from './secrets';

/** How long after a rotation the same refresh token may be presented again (another tab). */
const REUSE_GRACE_MS = 10_000;

type RefreshTokenRow = NonNullable<Awaited<ReturnType<AccountsRepository['findRefreshToken']>>>;

export interface AccessClaims {
  sub: string;
  tv: number;
}

/**
 * Access tokens are short-lived JWTs carrying the user's token version; refresh tokens are opaque,
 * stored hashed, rotated on every use, and presenting a rotated one revokes its whole family — except
 * once within REUSE_GRACE_MS, for a second tab that refreshed at the same moment: it gets the very
 * pair the first one got. That pair waits in Redis for the grace window, sealed under a key derived
 * from the old token, so only a holder of the old token can read it.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly jwt: JwtService,
    private readonly accounts: AccountsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private accessToken(user: UserRow): Promise<string> {
    const claims: AccessClaims = { sub: user.id, tv: user.tokenVersion };
    return this.jwt.signAsync(claims, { expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS });
  }

  private newRefreshToken(userId: string, familyId: string) {
    const token = newSecret();
    const expiresAt = new Date(Date.now() + this.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
    return { token, row: { userId, familyId, tokenHash: sha256(token), expiresAt } };
  }

  private async refreshToken(userId: string, familyId: string): Promise<string> {
    const { token, row } = this.newRefreshToken(userId, familyId);
    await this.accounts.insertRefreshToken(row);
    return token;
  }

  private successorKey(row: RefreshTokenRow): string {
    return `${this.config.QUEUE_PREFIX}:refresh-successor:${row.id}`;
  }

  async issue(user: UserRow): Promise<LoginTokens> {
    const [access, refresh] = await Promise.all([this.accessToken(user), this.refreshToken(user.id, randomUUID())]);
    return { access_token: access, refresh_Token: refresh, refresh_token: refresh };
  }

  async refresh(token: string): Promise<RefreshedTokens> {
    const expired = () => new DomainError({ code: 'SESSION_EXPIRED' });
    if (!token) throw expired();
    const row = await this.accounts.findRefreshToken(sha256(token));
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw expired();
    if (!row.rotatedAt) {
      const user = await this.accounts.findUserById(row.userId);
      if (!user) throw expired();
      const successor = this.newRefreshToken(user.id, row.familyId);
      const pair: RefreshedTokens = { access_token: await this.accessToken(user), refresh_token: successor.token };
      const sealed = seal(token, row.id, JSON.stringify(pair));
      const handOver = async () => {
        await this.redis.set(this.successorKey(row), sealed, 'PX', REUSE_GRACE_MS);
      };
      if (await this.accounts.rotateRefreshToken(row.id, successor.row, handOver)) return pair;
    }
    // Presented again after its rotation: a second tab gets the first one's pair, once; anyone else
    // is replaying a token that someone else may hold too.
    const replayed = await this.takeSuccessor(token, row);
    if (replayed) return replayed;
    await this.accounts.revokeFamily(row.familyId);
    throw expired();
  }

  private async takeSuccessor(token: string, row: RefreshTokenRow): Promise<RefreshedTokens | undefined> {
    const now = await this.accounts.findRefreshToken(row.tokenHash);
    if (!now?.rotatedAt || now.revokedAt || Date.now() - now.rotatedAt.getTime() >= REUSE_GRACE_MS) return undefined;
    // GETDEL: of two replays at the same moment, only one gets the pair.
    const sealed = await this.redis.getdel(this.successorKey(row));
    const pair = sealed ? unseal(token, row.id, sealed) : undefined;
    return pair ? (JSON.parse(pair) as RefreshedTokens) : undefined;
  }

  /**
   * Ends every session of the user: refresh tokens revoked, access tokens outdated. Given `accounts` acting
   * inside a transaction (`AccountsRepository.transaction`), both happen in it.
   */
  async revokeAll(userId: string, accounts: AccountsRepository = this.accounts): Promise<void> {
    await accounts.revokeAllRefreshTokens(userId);
    await accounts.bumpTokenVersion(userId);
  }

  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    try {
      const claims = await verifyExpiring<AccessClaims & { typ?: string }>(this.jwt, token);
      // Access tokens carry no type (each kind of token has its own key; a typed one is not an access token).
      return claims.typ === undefined ? claims : undefined;
    } catch {
      return undefined;
    }
  }
}
