// Server nonces for DPoP proofs (RFC 9449 §8, §9), without state: a nonce is an
// HMAC of the current time bucket under the `dpop.nonceSecretBinding` secret, so
// every isolate hands out and accepts the same ones. The current and the previous
// bucket's nonces are accepted: one lives between one and two PERIOD_S.

import { encode } from '../../../b64.js';
import { ConfigError } from '../../config-error.js';

/** Seconds per nonce bucket. */
export const NONCE_PERIOD_S = 300;
/** Shortest secret accepted, in characters. */
export const MIN_NONCE_SECRET = 32;

const encoder = new TextEncoder();

/** Whether a nonce is this bucket's, the previous one's (the client should move on), or neither. */
export type NonceCheck = 'current' | 'previous' | 'invalid';

/**
 * The nonces of one secret.
 *
 * @example
 * const nonces = await DpopNonces.fromSecret(env.DPOP_NONCE_SECRET);
 * const fresh = await nonces.current(Date.now()); // for a DPoP-Nonce header
 * await nonces.check(proof.nonce, Date.now()); // 'current'
 */
export class DpopNonces {
  readonly #key: CryptoKey;
  /** Nonce by bucket: two or three entries, the buckets in use. */
  readonly #byBucket = new Map<number, Promise<string>>();

  private constructor(key: CryptoKey) {
    this.#key = key;
  }

  /** Key the nonces with `secret` (a secret binding's value); ConfigError when it is missing or short. */
  static async fromSecret(secret: unknown): Promise<DpopNonces> {
    if (typeof secret !== 'string' || secret.length < MIN_NONCE_SECRET) {
      throw new ConfigError(
        'dpop.nonceSecretBinding',
        `the secret is not set or shorter than ${MIN_NONCE_SECRET} characters`,
      );
    }
    const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    return new DpopNonces(key);
  }

  /** The nonce to hand out at `nowMs`. */
  current(nowMs: number): Promise<string> {
    return this.#nonce(Math.floor(nowMs / 1000 / NONCE_PERIOD_S));
  }

  /** Whether `nonce` (the proof's, unverified shape) is one this server handed out recently. */
  async check(nonce: string | undefined, nowMs: number): Promise<NonceCheck> {
    if (nonce === undefined) return 'invalid';
    const bucket = Math.floor(nowMs / 1000 / NONCE_PERIOD_S);
    const [now, before] = await Promise.all([this.#nonce(bucket), this.#nonce(bucket - 1)]);
    // Both compared, always: the time taken says nothing about which one matched.
    const a = sameText(nonce, now);
    const b = sameText(nonce, before);
    return a ? 'current' : b ? 'previous' : 'invalid';
  }

  #nonce(bucket: number): Promise<string> {
    let n = this.#byBucket.get(bucket);
    if (n === undefined) {
      for (const old of this.#byBucket.keys()) if (old < bucket - 1) this.#byBucket.delete(old);
      n = crypto.subtle
        .sign('HMAC', this.#key, encoder.encode(`edgejwt dpop nonce ${bucket}`))
        .then((mac) => encode(new Uint8Array(mac, 0, 24)));
      this.#byBucket.set(bucket, n);
    }
    return n;
  }
}

/**
 * Equal strings, compared in time that depends on the expected length only.
 *
 * @example
 * sameText('abc', 'abc'); // true
 */
export function sameText(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
  return diff === 0;
}
