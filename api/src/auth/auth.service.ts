import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sparks/nest';
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
import { MailService } from '../mail/mail.service';
import { EmailDomainService } from './email-domain.service';
import { dummyHash, hashPassword, verifyPassword } from './passwords';
import { LoginCodes } from './login-codes.service';
import { RateLimiter } from './rate-limiter.service';
import { newCode, newSecret, sha256 } from './secrets';
import { TokensService } from './tokens.service';

const CODE_TTL_MS = 10 * 60_000;
const CODE_MAX_ATTEMPTS = 5;
const RESET_TTL_MS = 60 * 60_000;
const EXCHANGE_TTL_MS = 2 * 60_000;
/** Reset e-mails per account in one window of the sign-in limits; past it none, answered the same. */
const RESET_MAILS_PER_WINDOW = 5;

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
    private readonly loginCodes: LoginCodes,
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
    const passwordHash = await hashPassword(input.password, this.config.PASSWORD_HASH_COST);
    const language = input.config?.language ?? meta.language;
    const created = await this.accounts.createAccount({
      username,
      email: username,
      passwordHash,
      language,
      verified: false,
      tenant: this.newTenant(),
    });
    if (created) {
      await this.sendVerification(created.user);
      return toProfile(created.user, [created.tenant]);
    }
    // Taken. Until the address is proved, whoever signed up has shown nothing: signing up again (the
    // address's owner claiming it, say) replaces what they chose and mails a new code, and the answer
    // is that of a new account. Only a verified address answers USER_EXISTS (docs/decisions.md).
    const existing = await this.accounts.findUserByUsername(username);
    const restarted =
      existing && !existing.verifiedAt
        ? await this.accounts.restartPendingAccount(existing.id, { passwordHash, language, trialDays: TRIAL_DAYS })
        : undefined;
    if (!restarted) throw new DomainError({ code: 'USER_EXISTS', field: 'username' });
    await this.sendVerification(restarted.user);
    return toProfile(restarted.user, restarted.tenants);
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

  /**
   * The code proves the mailbox, not who chose the pending password: it is kept only when the caller
   * gives it (the client that signed up has it); without it the account is verified with no password
   * (a new one through forgot-password), so a stranger who signed up with the address gets nothing.
   */
  async verifyCode(
    input: { username: string; code: string; password?: string },
    meta: RequestMeta,
  ): Promise<LoginTokens> {
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
    const keepsPassword = input.password ? await verifyPassword(user.passwordHash, input.password) : false;
    // A password given and wrong is a typo of the one who signed up: the code is not spent on it.
    if (input.password && !keepsPassword) throw DomainError.invalid('WRONG_PASSWORD', 'password');
    // The code is spent only if the account is verified with it (one transaction).
    const verified = await this.accounts.transaction(async (accounts) => {
      if (!(await accounts.consumeCode(current.id))) throw invalid;
      return accounts.updateUser(user.id, {
        verifiedAt: new Date(),
        ...(keepsPassword ? {} : { passwordHash: null }),
      });
    });
    return this.tokens.issue(verified!);
  }

  async login(input: { username: string; password: string; code?: string }, meta: RequestMeta): Promise<LoginTokens> {
    const username = input.username.trim().toLowerCase();
    fail([...this.emailErrors(username), ...this.passwordErrors(input.password)]);
    const user = await this.accounts.findUserByUsername(username);
    const attempt = {
      account: username,
      passwordTag: user?.passwordHash ? sha256(user.passwordHash).slice(0, 16) : '-',
      ip: meta.ip,
    };
    const code = input.code?.trim();
    if ((await this.limiter.beginLogin(attempt)) === 'code') {
      // Past the account-wide limit from an IP the account does not know: the password is checked only
      // with a code from the mailbox. Asked for, a code is mailed (capped); a wrong one counts as a failure.
      if (!code) {
        await this.limiter.notChecked(attempt);
        if (user) await this.loginCodes.send(user);
        throw DomainError.invalid('LOGIN_CODE_REQUIRED', 'code');
      }
      if (!(await this.loginCodes.valid(username, code))) throw DomainError.invalid('INVALID_CODE', 'code');
    }
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyPassword(await dummyHash(this.config.PASSWORD_HASH_COST), '');
    if (!user || !ok) {
      failedLogins.inc();
      throw DomainError.invalid('WRONG_CREDENTIALS');
    }
    await this.limiter.loginSucceeded(attempt);
    if (code) await this.loginCodes.spend(username, code);
    if (!user.verifiedAt) throw DomainError.invalid('NOT_VERIFIED', 'username');
    return this.tokens.issue(user);
  }

  async forgotPassword(input: { email: string }, meta: RequestMeta): Promise<{ sent: true }> {
    const email = input.email.trim().toLowerCase();
    if (!BASIC_EMAIL.test(email)) throw DomainError.invalid('INVALID_PARAMS', 'email');
    // Limited per IP only: a count per account would let anyone block the owner's own reset. Instead
    // the e-mails to an account are capped, silently, and none ends the links already sent.
    await this.limiter.guard('forgot-password', undefined, meta.ip);
    const user = await this.accounts.findUserByUsername(email);
    if (!user) throw new DomainError({ code: 'USER_NOT_FOUND', field: 'email' });
    if (!(await this.limiter.mayMail('forgot-password', user.id, RESET_MAILS_PER_WINDOW))) return { sent: true };
    // An unverified account too: the link proves the mailbox, and the reset verifies the address.
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
    // The link is spent, every other reset link ended, the password changed (the address proved, so
    // verified), every code retired and every session ended together, or none of them.
    const user = await this.accounts.transaction(async (accounts) => {
      const userId = await accounts.useOneTimeToken(sha256(token), 'password_reset');
      if (!userId) throw invalid;
      await accounts.endOneTimeTokens(userId, 'password_reset');
      const before = await accounts.findUserById(userId);
      const changed = await accounts.updateUser(userId, {
        passwordHash,
        ...(before?.verifiedAt ? {} : { verifiedAt: new Date() }),
      });
      await accounts.endCodes(userId);
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
        // Google proved the address; a password chosen before it was proved is dropped.
        user = await this.accounts.updateUser(existing.id, {
          googleSub: profile.id,
          verifiedAt: existing.verifiedAt ?? new Date(),
          ...(existing.verifiedAt ? {} : { passwordHash: null }),
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
