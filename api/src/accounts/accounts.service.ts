import { Injectable } from '@nestjs/common';
import type { UserProfile, updateProfileSchema } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { AccountsRepository } from '@sparks/db';
import type { z } from 'zod';
import { toProfile } from './profile.view';

/** A profile change as the contract parsed it (the time zone under its canonical name). */
type UpdateProfile = z.output<typeof updateProfileSchema>;

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async profile(userId: string): Promise<UserProfile> {
    const user = await this.accounts.findUserById(userId);
    if (!user) throw DomainError.notFound();
    return toProfile(user, await this.accounts.tenantsOf(userId));
  }

  /**
   * Only names, language, time zone and the weekly digest: tenant, status, subscription and usage are the server's. A
   * zone the contract took (the platform's ICU knows it) that PostgreSQL's tzdata does not is refused too: the
   * analytics and the digest read days in it.
   */
  async update(userId: string, patch: UpdateProfile): Promise<UserProfile> {
    if (patch.timeZone !== undefined && !(await this.accounts.knowsTimeZone(patch.timeZone)))
      throw DomainError.invalid('TIME_ZONE_INVALID', 'timeZone');
    await this.accounts.updateUser(userId, {
      ...(patch.firstname !== undefined ? { firstname: patch.firstname } : {}),
      ...(patch.lastname !== undefined ? { lastname: patch.lastname } : {}),
      ...(patch.config?.language ? { language: patch.config.language } : {}),
      ...(patch.timeZone !== undefined ? { timeZone: patch.timeZone } : {}),
      ...(patch.weeklyDigest !== undefined ? { weeklyDigest: patch.weeklyDigest } : {}),
    });
    return this.profile(userId);
  }
}
