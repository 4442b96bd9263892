import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { AdminAccount, AdminAccountView, AdminAuditEntry, AdminMe } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { AccountsRepository, AdminRepository, type AuditRow, type UserRow } from '@sparks/db';
import { CONFIG } from '@sparks/nest';
import { verifyExpiring } from '../auth/jwt-options';

/** The admin pages' cookie: httpOnly, SameSite=Strict, sent only to the admin paths. */
export const ADMIN_COOKIE = 'sparks_admin';
const ADMIN_COOKIE_PATH = '/admin';

interface AdminSessionClaims {
  sub: string;
  tv: number;
  typ: 'admin-session';
}

export type SessionCheck = { ok: true; user: UserRow } | { ok: false; status: 401 | 403 };

/**
 * Who is an admin (ADMIN_EMAILS, or granted in the database with the CLI), the admin pages'
 * session, and the account actions of docs/product.md §4, each logged with who did it.
 */
@Injectable()
export class AdminService {
  private readonly log = new Logger('admin');

  constructor(
    private readonly jwt: JwtService,
    private readonly accounts: AccountsRepository,
    private readonly admin: AdminRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** A verified user whose e-mail is in ADMIN_EMAILS, or one granted with the CLI. */
  async isAdmin(user: Pick<UserRow, 'id' | 'username' | 'email' | 'verifiedAt'>): Promise<boolean> {
    const listed =
      user.verifiedAt !== null &&
      (this.config.ADMIN_EMAILS.includes(user.username) || this.config.ADMIN_EMAILS.includes(user.email.toLowerCase()));
    return listed || (await this.admin.isGrantedAdmin(user.id));
  }

  /** GET /admin/me: whether the caller is an admin; nothing more for anyone else. */
  async whoIs(userId: string): Promise<AdminMe> {
    const user = await this.accounts.findUserById(userId);
    return user && (await this.isAdmin(user)) ? { admin: true, username: user.username } : { admin: false };
  }

  async requireAdmin(userId: string): Promise<UserRow> {
    const user = await this.accounts.findUserById(userId);
    if (!user || !(await this.isAdmin(user))) throw new DomainError({ code: 'FORBIDDEN' });
    return user;
  }

  // — the admin pages' session —

  async openSession(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const user = await this.requireAdmin(userId);
    const claims: AdminSessionClaims = { sub: user.id, tv: user.tokenVersion, typ: 'admin-session' };
    const ttl = this.config.ADMIN_SESSION_TTL_SECONDS;
    const token = await this.jwt.signAsync(claims, { expiresIn: ttl });
    this.log.log({ admin: user.username }, 'admin session opened');
    return { token, expiresAt: new Date(Date.now() + ttl * 1000) };
  }

  /** 401: no session, a forged or expired one, or one of a signed-out user; 403: no longer an admin. */
  async checkSession(token: string | undefined): Promise<SessionCheck> {
    if (!token) return { ok: false, status: 401 };
    let claims: AdminSessionClaims;
    try {
      claims = await verifyExpiring<AdminSessionClaims>(this.jwt, token, { algorithms: ['HS256'] });
    } catch {
      return { ok: false, status: 401 };
    }
    if (claims.typ !== 'admin-session') return { ok: false, status: 401 };
    const user = await this.accounts.findUserById(claims.sub);
    if (!user || user.tokenVersion !== claims.tv) return { ok: false, status: 401 };
    if (!(await this.isAdmin(user))) return { ok: false, status: 403 };
    return { ok: true, user };
  }

  cookieOptions(maxAgeMs: number) {
    return {
      httpOnly: true,
      sameSite: 'strict' as const,
      secure: this.config.APP_URL.startsWith('https:'),
      path: ADMIN_COOKIE_PATH,
      maxAge: maxAgeMs,
    };
  }

  // — accounts —

  private async view(user: UserRow): Promise<AdminAccountView> {
    const status = (await this.admin.accountStatus(user.id)) ?? 'inactive';
    const account: AdminAccount = {
      _id: user.id,
      username: user.username,
      firstname: user.firstname,
      lastname: user.lastname,
      createdAt: user.createdAt.toISOString(),
      status,
      admin: await this.isAdmin(user),
    };
    const audit = (await this.admin.audit({ userId: user.id, limit: 20 })).map(auditView);
    return { account, audit };
  }

  async findAccount(email: string): Promise<AdminAccountView> {
    const user = await this.accounts.findUserByUsername(email.trim().toLowerCase());
    if (!user) throw new DomainError({ code: 'USER_NOT_FOUND' });
    return this.view(user);
  }

  /** docs/product.md §4 "Disable user": the first tenant becomes inactive (enable: active again). Logged. */
  async setStatus(adminId: string, userId: string, status: 'active' | 'inactive'): Promise<AdminAccountView> {
    const admin = await this.requireAdmin(adminId);
    const user = await this.accounts.findUserById(userId);
    if (!user || !(await this.admin.setAccountStatus(user.id, status, admin.username))) {
      throw new DomainError({ code: 'USER_NOT_FOUND' });
    }
    this.log.log(
      { admin: admin.username, user: user.username, action: status === 'inactive' ? 'disable' : 'enable' },
      `account ${status === 'inactive' ? 'disabled' : 'enabled'} by an admin`,
    );
    return this.view(user);
  }

  async latestAudit(): Promise<AdminAuditEntry[]> {
    return (await this.admin.audit({ limit: 50 })).map(auditView);
  }
}

function auditView(row: AuditRow): AdminAuditEntry {
  return {
    _id: row.id,
    actor: row.actor,
    action: row.action as AdminAuditEntry['action'],
    targetUserId: row.targetUserId,
    targetUsername: row.targetUsername,
    createdAt: row.createdAt.toISOString(),
  };
}
