import { Inject, Injectable } from '@nestjs/common';
import { failedLogins } from '../metrics/metrics';
import {
  BASIC_EMAIL,
  CODE_LENGTH,
  emailDomain,
  hasAt,
  isStrongEnoughForRegister,
  isValidResetPassword,
  PASSWORD_MIN,
  RESEND_COOLDOWN_SECONDS,
  type Language,
  type LoginTokens,
  type UserProfile,
} from '@sparks/contracts';
import { DomainError, renderEmail, TRIAL_DAYS, type AppConfig, type ErrorDetail } from '@sparks/core';
import { AccountsRepository, type UserRow } from '@sparks/db';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { toProfile } from '../accounts/profile.view';
import { CONFIG } from '../infra/tokens';
import { MailService } from '../mail/mail.service';
import { EmailDomainService } from './email-domain.service';
import { dummyHash, hashPassword, verifyPassword } from './passwords';
import { RateLimiter } from './rate-limiter.service';
import { newCode, newSecret, sha256 } from './secrets';
import { TokensService } from './tokens.service';

const CODE_TTL_MS = 10 * 60_000;
const CODE_MAX_ATTEMPTS = 5;
const RESET_TTL_MS = 60 * 60_000;
const EXCHANGE_TTL_MS = 2 * 60_000;

export interface RequestMeta {
  ip: string;
  language: Language;
}

export interface GoogleProfile {
  id: string;
  emails?: Array<{ value: string; verified?: boolean }>;
  name?: { givenName?: string; familyName?: string };
  _json?: { email_verified?: boolean };
}

const fail = (details: ErrorDetail[]) => {
  if (details.length) throw new DomainError(details);
};
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

@Injectable()
export class AuthService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tokens: TokensService,
    private readonly mail: MailService,
    private readonly domains: EmailDomainService,
    private readonly limiter: RateLimiter,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private emailErrors(username: string): ErrorDetail[] {
    if (!username) return [{ code: 'REQUIRED', field: 'username' }];
    if (!hasAt(username) || username.length < 3) return [{ code: 'INVALID_EMAIL', field: 'username' }];
    return [];
  }

  private passwordErrors(password: string): ErrorDetail[] {
    if (!password) return [{ code: 'REQUIRED', field: 'password' }];
    if (password.length < PASSWORD_MIN)
      return [{ code: 'PASSWORD_MIN', field: 'password', params: { count: PASSWORD_MIN } }];
    return [];
  }

  private async requireUser(username: string): Promise<UserRow> {
    const user = await this.accounts.findUserByUsername(username);
    if (!user) throw new DomainError({ code: 'USER_NOT_FOUND', field: 'username' });
    return user;
  }

  async register(
    input: { username: string; password: string; email?: string; config?: { language?: Language } },
    meta: RequestMeta,
  ): Promise<UserProfile> {
    const username = (input.username || input.email || '').trim().toLowerCase();
    const errors = [...this.emailErrors(username), ...this.passwordErrors(input.password)];
    if (!errors.some((e) => e.field === 'password') && !isStrongEnoughForRegister(input.password)) {
      errors.push({ code: 'PASSWORD_NOT_STRONG', field: 'password' });
    }
    fail(errors);
    await this.limiter.guard('register', username, meta.ip);
    if (!(await this.domains.mayExist(emailDomain(username)))) {
      fail([{ code: 'INVALID_DOMAIN', field: 'username' }]);
    }
    const created = await this.accounts.createAccount({
      username,
      email: username,
      passwordHash: await hashPassword(input.password, this.config.PASSWORD_HASH_COST),
      language: input.config?.language ?? meta.language,
      verified: false,
      tenant: this.newTenant(),
    });
    if (!created) throw new DomainError({ code: 'USER_EXISTS', field: 'username' });
    await this.sendVerification(created.user);
    return toProfile(created.user, [created.tenant]);
  }

  private newTenant() {
    return {
      customerId: `cus_${randomBytes(10).toString('hex')}`,
      trialDays: TRIAL_DAYS,
    };
  }

  private async sendVerification(user: UserRow): Promise<void> {
    const code = newCode();
    await this.accounts.replaceCode(user.id, sha256(code), new Date(Date.now() + CODE_TTL_MS));
    const { subject, text } = renderEmail('verification', user.language, { code, minutes: CODE_TTL_MS / 60_000 });
    await this.mail.send({ to: user.email, subject, text, language: user.language });
  }

  async sendCode(input: { username: string }, meta: RequestMeta): Promise<{ sent: true; cooldownSeconds: number }> {
    const username = input.username.trim().toLowerCase();
    fail(this.emailErrors(username));
    await this.limiter.guard('send-code', username, meta.ip);
    const user = await this.requireUser(username);
    if (user.verifiedAt) throw DomainError.invalid('ALREADY_VERIFIED', 'username');
    const last = await this.accounts.latestCode(user.id);
    const waited = last ? (Date.now() - last.createdAt.getTime()) / 1000 : Infinity;
    if (waited < RESEND_COOLDOWN_SECONDS) {
      throw new DomainError({
        code: 'RESEND_TOO_SOON',
        params: { seconds: Math.ceil(RESEND_COOLDOWN_SECONDS - waited) },
      });
    }
    await this.sendVerification(user);
    return { sent: true, cooldownSeconds: RESEND_COOLDOWN_SECONDS };
  }

  async verifyCode(input: { username: string; code: string }, meta: RequestMeta): Promise<LoginTokens> {
    const username = input.username.trim().toLowerCase();
    const code = input.code.trim();
    fail([...this.emailErrors(username), ...(code ? [] : [{ code: 'REQUIRED' as const, field: 'code' }])]);
    await this.limiter.guard('verify-code', username, meta.ip);
    const user = await this.requireUser(username);
    if (user.verifiedAt) throw DomainError.invalid('ALREADY_VERIFIED', 'username');
    const invalid = DomainError.invalid('INVALID_CODE', 'code');
    const current = await this.accounts.latestCode(user.id);
    if (!current || current.consumedAt || current.expiresAt.getTime() <= Date.now()) throw invalid;
    if (code.length !== CODE_LENGTH || !sameHash(sha256(code), current.codeHash)) {
      await this.accounts.failCodeAttempt(current.id, CODE_MAX_ATTEMPTS);
      throw invalid;
    }
    // The code is spent only if the account is verified with it (one transaction).
    const verified = await this.accounts.transaction(async (accounts) => {
      if (!(await accounts.consumeCode(current.id))) throw invalid;
      return accounts.updateUser(user.id, { verifiedAt: new Date() });
    });
    return this.tokens.issue(verified!);
  }

  async login(input: { username: string; password: string }, meta: RequestMeta): Promise<LoginTokens> {
    const username = input.username.trim().toLowerCase();
    fail([...this.emailErrors(username), ...this.passwordErrors(input.password)]);
    const user = await this.accounts.findUserByUsername(username);
    const attempt = {
      account: username,
      passwordTag: user?.passwordHash ? sha256(user.passwordHash).slice(0, 16) : '-',
      ip: meta.ip,
    };
    await this.limiter.beginLogin(attempt);
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyPassword(await dummyHash(this.config.PASSWORD_HASH_COST), '');
    if (!user || !ok) {
      failedLogins.inc();
      throw DomainError.invalid('WRONG_CREDENTIALS');
    }
    await this.limiter.loginSucceeded(attempt);
    if (!user.verifiedAt) throw DomainError.invalid('NOT_VERIFIED', 'username');
    return this.tokens.issue(user);
  }

  async forgotPassword(input: { email: string }, meta: RequestMeta): Promise<{ sent: true }> {
    const email = input.email.trim().toLowerCase();
    if (!BASIC_EMAIL.test(email)) throw DomainError.invalid('INVALID_PARAMS', 'email');
    await this.limiter.guard('forgot-password', email, meta.ip);
    const user = await this.accounts.findUserByUsername(email);
    if (!user) throw new DomainError({ code: 'USER_NOT_FOUND', field: 'email' });
    if (!user.verifiedAt) throw DomainError.invalid('NOT_VERIFIED', 'email');
    const token = newSecret();
    await this.accounts.insertOneTimeToken({
      userId: user.id,
      purpose: 'password_reset',
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    });
    // Built from the configured address, never from the request's Host header.
    const link = `${this.config.APP_URL}/reset-password?token=${encodeURIComponent(token)}`;
    const { subject, text } = renderEmail('reset', user.language, { link, minutes: RESET_TTL_MS / 60_000 });
    await this.mail.send({ to: user.email, subject, text, language: user.language });
    return { sent: true };
  }

  async resetPassword(
    token: string | undefined,
    input: { newPassword: string },
    meta: RequestMeta,
  ): Promise<{ username: string }> {
    await this.limiter.guard('reset-password', undefined, meta.ip);
    const invalid = DomainError.invalid('INVALID_TOKEN');
    if (!token) throw invalid;
    // Check the password before spending the token, so a typo does not burn the link.
    if (!(await this.accounts.peekOneTimeToken(sha256(token), 'password_reset'))) throw invalid;
    if (!input.newPassword) throw DomainError.invalid('REQUIRED', 'newPassword');
    if (!isValidResetPassword(input.newPassword)) throw DomainError.invalid('RESET_PASSWORD_RULES', 'newPassword');
    const passwordHash = await hashPassword(input.newPassword, this.config.PASSWORD_HASH_COST);
    // The link is spent, the password changed and every session ended together, or none of them.
    const user = await this.accounts.transaction(async (accounts) => {
      const userId = await accounts.useOneTimeToken(sha256(token), 'password_reset');
      if (!userId) throw invalid;
      const changed = await accounts.updateUser(userId, { passwordHash });
      await this.tokens.revokeAll(userId, accounts);
      return changed;
    });
    return { username: user!.username };
  }

  async exchange(token: string | undefined): Promise<LoginTokens> {
    const userId = token ? await this.accounts.useOneTimeToken(sha256(token), 'oauth_exchange') : undefined;
    const user = userId ? await this.accounts.findUserById(userId) : undefined;
    if (!user) throw DomainError.invalid('INVALID_TOKEN');
    return this.tokens.issue(user);
  }

  /** Signs in with Google: by Google's subject id, else links the verified e-mail, else creates the user. */
  async googleSignIn(profile: GoogleProfile, language: Language): Promise<string> {
    const email = profile.emails?.[0]?.value?.trim().toLowerCase();
    const emailVerified = profile._json?.email_verified ?? profile.emails?.[0]?.verified ?? false;
    let user = await this.accounts.findUserByGoogleSub(profile.id);
    if (!user && email && emailVerified) {
      const existing = await this.accounts.findUserByUsername(email);
      if (existing) {
        user = await this.accounts.updateUser(existing.id, {
          googleSub: profile.id,
          verifiedAt: existing.verifiedAt ?? new Date(),
        });
      } else {
        const created = await this.accounts.createAccount({
          username: email,
          email,
          passwordHash: null,
          language,
          verified: true,
          googleSub: profile.id,
          firstname: profile.name?.givenName ?? '',
          lastname: profile.name?.familyName ?? '',
          tenant: this.newTenant(),
        });
        user = created?.user ?? (await this.accounts.findUserByUsername(email));
      }
    }
    if (!user) throw DomainError.invalid('GOOGLE_FAILED');
    const token = newSecret();
    await this.accounts.insertOneTimeToken({
      userId: user.id,
      purpose: 'oauth_exchange',
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + EXCHANGE_TTL_MS),
    });
    return token;
  }

  async logout(userId: string): Promise<{ loggedOut: true }> {
    await this.tokens.revokeAll(userId);
    return { loggedOut: true };
  }
}
