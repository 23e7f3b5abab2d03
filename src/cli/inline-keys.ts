// The deploy-time half of the guard's key checks. At run time the guard builds each
// issuer's keys at the first token that selects it (the library's lazy construction),
// so a key that only its costly checks refuse (an EC point off its curve, RSA e = 1, an
// Ed25519 value that is no point) would be found by a request. `check-config`
// builds every inline key now (Verifier.prepare), so it fails the deploy.
// Secrets (secretBinding) and fetched sets cannot be seen from here.

import type { Algorithm } from '../algorithms.js';
import { isJwtError } from '../errors.js';
import { createLocalJWKSet } from '../keys/local.js';
import { buildVerifier } from '../verify-path.js';
import type { GuardConfig } from '../worker/config.js';

/** The message of one failure: a JwtError's (fixed text, never key bytes), else a fixed line. */
function messageOf(e: unknown): string {
  return isJwtError(e) ? e.message : 'a key cannot be built';
}

/**
 * One line per inline key set (`issuers[].jwks`) of `config` that holds no usable key,
 * or a key that cannot be built for the issuer's algorithms; [] when all build.
 *
 * @example
 * const errors = await inlineKeyErrors(parseConfig(raw));
 * // ['GUARD_CONFIG issuers[1].jwks: key is malformed or unusable: EC point is not on the curve']
 */
export async function inlineKeyErrors(config: GuardConfig): Promise<string[]> {
  const errors: string[] = [];
  for (const [i, is] of config.issuers.entries()) {
    if (is.source.kind !== 'jwks') continue;
    const at = `GUARD_CONFIG issuers[${i}].jwks`;
    try {
      const jwks = createLocalJWKSet(is.source.jwks as never);
      // As the guard's build refuses it (src/worker/build.ts).
      if (jwks.held().length === 0) {
        errors.push(`${at}: no usable verification key in the set`);
        continue;
      }
      await buildVerifier({ algorithms: is.algorithms as Algorithm[], jwks, cache: false }).prepare();
    } catch (e) {
      for (const one of e instanceof AggregateError ? e.errors : [e]) errors.push(`${at}: ${messageOf(one)}`);
    }
  }
  return errors;
}
