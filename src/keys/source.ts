// What a verifier asks of any key source: the one key for this algorithm and kid.

import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry } from './entry.js';

export const KEY_SOURCE = Symbol.for('edgejwt.keySource');

export interface KeySource {
  readonly [KEY_SOURCE]: true;
  /** The matching key; a promise only when the source must fetch first. */
  select(spec: AlgSpec, kid: string | undefined): KeyEntry | Promise<KeyEntry>;
  /**
   * For sources whose keys change (fetched sets): the key a fresh set in memory holds
   * for this algorithm and kid, without any I/O; undefined when none is known now.
   */
  peek?(spec: AlgSpec, kid: string | undefined): KeyEntry | undefined;
  /** For sources that hold their keys in code (one key, a local set): every key, for Verifier.prepare. */
  held?(): readonly KeyEntry[];
}

export function isKeySource(value: unknown): value is KeySource {
  return typeof value === 'object' && value !== null && (value as Partial<KeySource>)[KEY_SOURCE] === true;
}

/**
 * Pick from candidates: kid must match when the token has one; without a kid, exactly
 * one key of the right type may fit. Returns undefined when none fits.
 */
export function pick(
  keys: readonly KeyEntry[],
  spec: AlgSpec,
  kid: string | undefined,
  allowHmac: boolean,
): KeyEntry | undefined {
  let found: KeyEntry | undefined;
  for (const k of keys) {
    if (kid !== undefined && k.kid !== kid) continue;
    if (!k.fits(spec)) continue;
    if (k.kty === 'oct' && !allowHmac) continue;
    // A key whose deferred check fails (run here once) is no candidate, as if it had not parsed.
    if (!k.sound()) continue;
    if (found !== undefined) throw new JwtError('ERR_JWKS_MULTIPLE_MATCHING_KEYS');
    found = k;
  }
  return found;
}
