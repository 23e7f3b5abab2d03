// Which of the verify stage's given parts a config uses (build.ts asks, and so does needs.ts).

import type { GuardConfig } from '../../config-core.js';

/**
 * Whether the issuers fetch key sets (jwksUrl or discovery): then the guard needs remoteKeys.
 *
 * @example
 * usesRemoteKeys(parseConfig(raw)); // true with a jwksUrl issuer
 */
export function usesRemoteKeys(config: Pick<GuardConfig, 'issuers'>): boolean {
  return config.issuers.some((is) => is.source.kind === 'jwksUrl' || is.source.kind === 'discovery');
}

/**
 * Whether every issuer verifies with an HMAC secret (secretBinding): then the guard needs no keySets.
 *
 * @example
 * const issuer = { issuer: 'i', audience: 'api', algorithms: ['HS256'], secretBinding: 'K' };
 * hmacOnly(parseConfig({ issuers: [issuer] })); // true
 */
export function hmacOnly(config: Pick<GuardConfig, 'issuers'>): boolean {
  return config.issuers.every((is) => is.source.kind === 'secret');
}
