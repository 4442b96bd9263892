import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { LoginTokens, RefreshedTokens } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { AccountsRepository, type UserRow } from '@sparks/db';
import { randomUUID } from 'node:crypto';
import { CONFIG } from '../infra/tokens';
import { newSecret, sha256 } from './secrets';

/** How long after a rotation the same refresh token may be presented again (another tab). */
const REUSE_GRACE_MS = 10_000;

export interface AccessClaims {
  sub: string;
  tv: number;
}

/**
 * Access tokens are short-lived JWTs carrying the user's token version; refresh tokens are opaque,
 * stored hashed, rotated on every use, and presenting a rotated one revokes its whole family.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly jwt: JwtService,
    private readonly accounts: AccountsRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private accessToken(user: UserRow): Promise<string> {
    const claims: AccessClaims = { sub: user.id, tv: user.tokenVersion };
    return this.jwt.signAsync(claims, { expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS });
  }

  private async refreshToken(userId: string, familyId: string): Promise<string> {
    const token = newSecret();
    await this.accounts.insertRefreshToken({
      userId,
      familyId,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + this.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    });
    return token;
  }

  async issue(user: UserRow): Promise<LoginTokens> {
    const [access, refresh] = await Promise.all([this.accessToken(user), this.refreshToken(user.id, randomUUID())]);
    return { access_token: access, refresh_Token: refresh, refresh_token: refresh };
  }

  async refresh(token: string): Promise<RefreshedTokens> {
    const expired = () => new DomainError(401, { code: 'SESSION_EXPIRED' });
    if (!token) throw expired();
    const row = await this.accounts.findRefreshToken(sha256(token));
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw expired();
    if (row.rotatedAt || !(await this.accounts.rotateRefreshToken(row.id))) {
      const rotatedAt = (await this.accounts.findRefreshToken(row.tokenHash))?.rotatedAt;
      const concurrent = rotatedAt && Date.now() - rotatedAt.getTime() < REUSE_GRACE_MS;
      if (!concurrent) {
        // A token exchanged a while ago is being replayed: someone else may hold the family.
        await this.accounts.revokeFamily(row.familyId);
        throw expired();
      }
      // Two tabs refreshing at the same moment: the later one gets a pair of its own in the family.
    }
    const user = await this.accounts.findUserById(row.userId);
    if (!user) throw expired();
    const [access, refresh] = await Promise.all([this.accessToken(user), this.refreshToken(user.id, row.familyId)]);
    return { access_token: access, refresh_token: refresh };
  }

  /** Ends every session of the user: refresh tokens revoked, access tokens outdated. */
  async revokeAll(userId: string): Promise<void> {
    await this.accounts.revokeAllRefreshTokens(userId);
    await this.accounts.bumpTokenVersion(userId);
  }

  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    try {
      return await this.jwt.verifyAsync<AccessClaims>(token);
    } catch {
      return undefined;
    }
  }
}
