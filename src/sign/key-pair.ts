// A private JWK carries its public part (`x`,`y` for EC, `x` for OKP, `n`,`e` for RSA)
// beside the private one, and backends differ on which they trust: node:crypto
// imports an EC JWK whose x,y belong to another key without a word, and an Ed25519
// signer that hashes a given, wrong public key into its signatures gives away its
// private key to anyone holding two of them. So before a signing key from a JWK is
// used, it signs one fixed message and the public part alone (through the verifier's
// own key rules, src/keys/entry.ts) must accept that signature.

import { signBackend } from '#crypto-backend';
import type { AlgSpec } from '../algorithms.js';
import type { SignKey } from '../backend/sign-types.js';
import { JwtError } from '../errors.js';
import type { JWK } from '../keys/entry.js';
import { keyEntryFromJwk } from '../keys/from-input.js';
import { bad } from '../keys/jwk-bytes.js';

const PROBE = 'edgejwt.pairwise-consistency-check';
const PROBE_BYTES = new TextEncoder().encode(PROBE);

function mismatch(): JwtError {
  return bad('the public part of the JWK does not match its private key');
}

/** The public members of a private JWK, as a verification key. */
function publicPart(jwk: Readonly<Record<string, unknown>>): JWK {
  const pick = (names: readonly string[]): JWK => Object.fromEntries(names.map((n) => [n, jwk[n]])) as JWK;
  if (jwk.kty === 'RSA') return pick(['kty', 'n', 'e']);
  if (jwk.kty === 'EC') return pick(['kty', 'crv', 'x', 'y']);
  return pick(['kty', 'crv', 'x']);
}

function verdict(ok: boolean): void {
  if (!ok) throw mismatch();
}

function probe(spec: AlgSpec, key: SignKey, jwk: Readonly<Record<string, unknown>>): void | Promise<void> {
  // Throws ERR_KEY_INVALID for a public part that is no key at all (an off-curve point, e = 1).
  const handle = keyEntryFromJwk(publicPart(jwk)).handle(spec);
  const signature = signBackend.sign(spec, key, PROBE);
  if (!(handle instanceof Promise) && !(signature instanceof Promise)) {
    const ok = handle.verify({ message: PROBE_BYTES, signature });
    return ok instanceof Promise ? ok.then(verdict) : verdict(ok);
  }
  return Promise.all([handle, signature])
    .then(([h, s]) => h.verify({ message: PROBE_BYTES, signature: s }))
    .then(verdict);
}

/**
 * `key` (imported from the private JWK `jwk`) once its public part is shown to belong
 * to it: synchronously where the backend is (node:crypto), else as a promise.
 * Throws (or rejects with) ERR_KEY_INVALID on a mismatch.
 *
 * @example
 * const key = matchedKeyPair(spec, signBackend.importPrivate(spec, jwk), jwk);
 */
export function matchedKeyPair(
  spec: AlgSpec,
  key: SignKey | Promise<SignKey>,
  jwk: Readonly<Record<string, unknown>>,
): SignKey | Promise<SignKey> {
  if (key instanceof Promise) return key.then(async (k) => (await probe(spec, k, jwk), k));
  const checked = probe(spec, key, jwk);
  return checked instanceof Promise ? checked.then(() => key) : key;
}
