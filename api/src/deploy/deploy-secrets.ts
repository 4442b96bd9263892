import { DomainError } from '@sparks/core';
import type { DeployRepository, DeploymentRow } from '@sparks/db';
import { newSecret, seal, sha256, unseal } from '../auth/secrets';

const TOKEN_CONTEXT = 'deploy token';

/** A new public deploy token: `dt_` and 256 random bits. */
export function newDeployToken(secret: string) {
  const token = `dt_${newSecret()}`;
  return {
    token,
    tokenHash: sha256(token),
    tokenSealed: seal(secret, TOKEN_CONTEXT, token),
    tokenPrefix: token.slice(0, 9),
  };
}

/**
 * The deployment with a token: one the deploy assistant revoked (in the worker, which holds no secret
 * to seal a new one) gets its new token here, the first time the owner's page or the Pulse asks.
 */
export async function withLiveToken(
  repo: DeployRepository,
  secret: string,
  deployment: DeploymentRow | undefined,
): Promise<DeploymentRow | undefined> {
  if (!deployment || deployment.tokenSealed) return deployment;
  const { tokenHash, tokenSealed, tokenPrefix } = newDeployToken(secret);
  return repo.reissueToken(deployment.sparkId, { tokenHash, tokenSealed, tokenPrefix });
}

export const openDeployToken = (secret: string, sealed: string) => unseal(secret, TOKEN_CONTEXT, sealed);
export const hashToken = sha256;
export const newSiteKey = () => `sk_${newSecret()}`;

/**
 * A website address as the browser sends it in `Origin`: scheme, host and port only. The owner may
 * paste a whole page address; only http and https count.
 */
export function normalizeOrigin(input: string): string {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw DomainError.invalid('INVALID_ORIGIN', 'origin');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) {
    throw DomainError.invalid('INVALID_ORIGIN', 'origin');
  }
  return url.origin;
}

export function snippetFor(scriptUrl: string, token: string): string {
  return `<script src="${scriptUrl}" data-token="${token}" async></script>`;
}
