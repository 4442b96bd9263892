import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { Resolver } from 'node:dns/promises';
import { CONFIG } from '@sparks/nest';

type Verdict = 'exists' | 'missing' | 'unknown';
const MISSING = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * docs/product.md §5: an e-mail whose domain has no DNS is refused ('invalid domain'). When no resolver
 * answers — or the resolver denies every name, as on an offline machine — sign-up is not blocked:
 * before calling a domain missing we check that a domain known to exist resolves.
 */
@Injectable()
export class EmailDomainService {
  private readonly logger = new Logger(EmailDomainService.name);
  private readonly cache = new Map<string, { verdict: Verdict; at: number }>();

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  private resolver(): Resolver {
    const resolver = new Resolver({ timeout: 1500, tries: 1 });
    if (this.config.DNS_SERVERS) resolver.setServers(this.config.DNS_SERVERS.split(',').map((s) => s.trim()));
    return resolver;
  }

  private async lookup(domain: string): Promise<Verdict> {
    const cached = this.cache.get(domain);
    if (cached && Date.now() - cached.at < 5 * 60_000) return cached.verdict;
    const resolver = this.resolver();
    const attempts = [
      () => resolver.resolveMx(domain),
      () => resolver.resolve4(domain),
      () => resolver.resolve6(domain),
    ];
    let verdict: Verdict = 'missing';
    for (const attempt of attempts) {
      try {
        const records = await attempt();
        if (records.length > 0) {
          verdict = 'exists';
          break;
        }
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (!MISSING.has(code)) {
          verdict = 'unknown';
          break;
        }
      }
    }
    this.cache.set(domain, { verdict, at: Date.now() });
    return verdict;
  }

  /** false only when DNS answers, and says the domain does not exist. */
  async mayExist(domain: string): Promise<boolean> {
    if (!this.config.DNS_CHECK) return true;
    const verdict = await this.lookup(domain);
    if (verdict !== 'missing') return true;
    const canary = await this.lookup(this.config.DNS_CANARY_DOMAIN);
    if (canary !== 'exists') {
      this.logger.warn(`DNS cannot resolve ${this.config.DNS_CANARY_DOMAIN}; not blocking ${domain}`);
      return true;
    }
    return false;
  }
}
