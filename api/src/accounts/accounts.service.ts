import { Injectable } from '@nestjs/common';
import type { UpdateProfileRequest, UserProfile } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { AccountsRepository } from '@sparks/db';
import { toProfile } from './profile.view';

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async profile(userId: string): Promise<UserProfile> {
    const user = await this.accounts.findUserById(userId);
    if (!user) throw DomainError.notFound();
    return toProfile(user, await this.accounts.tenantsOf(userId));
  }

  /** Only names and language: tenant, status, subscription and usage are the server's. */
  async update(userId: string, patch: UpdateProfileRequest): Promise<UserProfile> {
    await this.accounts.updateUser(userId, {
      ...(patch.firstname !== undefined ? { firstname: patch.firstname } : {}),
      ...(patch.lastname !== undefined ? { lastname: patch.lastname } : {}),
      ...(patch.config?.language ? { language: patch.config.language } : {}),
    });
    return this.profile(userId);
  }
}
