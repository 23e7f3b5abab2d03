// Every options object the library accepts has an allow-list of its names here:
// in plain JS a misspelt name (`audiance: 'api'`) would otherwise be ignored and
// silently turn a check off. Each list is tied to its interface by `satisfies`,
// so a new option that is not added here does not compile.

import type { CacheOptions } from './cache.js';
import type { DecryptionOptions } from './jwe/decrypt.js';
import type { EncrypterOptions } from './jwe/encrypter.js';
import { optionsError } from './options-error.js';
import type { LocalSetOptions } from './keys/local.js';
import type { RemoteJWKSetOptions } from './keys/remote.js';
import type { PolicyOptions } from './options.js';
import type { SignOptions } from './sign/claims.js';
import type { SignerOptions } from './sign/signer.js';
import type { VerifierOptions } from './verifier.js';

/** An allow-list with exactly the names of T (see the `satisfies` below). */
export type OptionNames<T> = Record<keyof T, true>;

export const POLICY_OPTION_NAMES = {
  algorithms: true, key: true, jwks: true, issuer: true, audience: true, subject: true, typ: true,
  clockTolerance: true, maxTokenAge: true, requiredClaims: true, requireExp: true, profile: true,
} as const satisfies OptionNames<PolicyOptions>;

export const VERIFIER_OPTION_NAMES = {
  ...POLICY_OPTION_NAMES, issuers: true, maxTokenLength: true, currentDate: true, cache: true, rawPayload: true,
  decryption: true,
} as const satisfies OptionNames<Required<VerifierOptions>>;

export const DECRYPTION_OPTION_NAMES = { keys: true, algorithms: true, encryptions: true } as const satisfies OptionNames<DecryptionOptions>;

export const SIGNER_OPTION_NAMES = { alg: true, key: true, header: true } as const satisfies OptionNames<SignerOptions>;

export const SIGN_OPTION_NAMES = {
  header: true, expiresIn: true, notBefore: true, issuer: true, audience: true, subject: true, jwtId: true, iat: true,
} as const satisfies OptionNames<SignOptions>;

export const ENCRYPTER_OPTION_NAMES = { alg: true, enc: true, key: true, header: true } as const satisfies OptionNames<EncrypterOptions>;

export const CACHE_OPTION_NAMES = { max: true, ttl: true } as const satisfies OptionNames<CacheOptions>;

export const LOCAL_SET_OPTION_NAMES = { allowHmac: true } as const satisfies OptionNames<LocalSetOptions>;

export const REMOTE_SET_OPTION_NAMES = {
  timeoutDuration: true, cooldownDuration: true, cacheMaxAge: true, cacheMinAge: true, staleDuration: true,
  maxSize: true, allowHmac: true, store: true, storeTimeoutDuration: true, waitUntil: true, headers: true, fetch: true, now: true,
} as const satisfies OptionNames<RemoteJWKSetOptions>;

/**
 * Throws ERR_OPTIONS_INVALID naming the first own name of `options` that is not in
 * `allowed` (prefixed with `at`, e.g. `issuers[1].audiance`).
 *
 * @example
 * checkOptionNames({ audiance: 'api' }, VERIFIER_OPTION_NAMES); // throws: setting "audiance"
 */
export function checkOptionNames(options: object, allowed: Readonly<Record<string, true>>, at?: string): void {
  // for-in allocates no key array (this runs on every signSync). It also visits
  // inherited enumerable names, which the hasOwn test skips; an allow-list holds only
  // `true`, which no inherited member of a plain object is.
  for (const name in options) {
    if ((allowed as Record<string, unknown>)[name] !== true && Object.hasOwn(options, name)) {
      throw optionsError(at === undefined ? name : `${at}.${name}`, 'unknown option');
    }
  }
}

/**
 * A copy without the members whose value is `undefined`: an explicit `undefined`
 * means "not given", so it never replaces a default when options merge.
 *
 * @example
 * ({ ...{ audience: 'api' }, ...definedOnly({ audience: undefined }) }); // { audience: 'api' }
 */
export function definedOnly<T extends object>(options: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
