// One configured key (`key` in the options) as a key source: the token's kid is
// not consulted, and the key is checked for every allowed algorithm it fits at
// construction (KeyEntry.prepare: shape, length, algorithm fit), so a short or
// mistyped key fails there; what costs (curve and RSA checks, imports) waits for the
// first verify, or Verifier.prepare.

import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry } from './entry.js';
import { KEY_SOURCE, type KeySource } from './source.js';

/** A single configured key; the token's kid is not consulted. */
export class SingleKey implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  constructor(readonly entry: KeyEntry) {}
  held(): readonly KeyEntry[] {
    return [this.entry];
  }
  select(spec: AlgSpec): KeyEntry {
    if (!this.entry.fits(spec)) throw new JwtError('ERR_KEY_ALG_MISMATCH');
    return this.entry;
  }
}

/** `entry` as the one key of a policy, checked now for every allowed algorithm it fits. */
export function singleKey(entry: KeyEntry, specs: AlgSpec[]): SingleKey {
  if (!entry.usable)
    throw new JwtError('ERR_KEY_INVALID', { reason: 'use, key_ops or alg of the key rule out verification' });
  const fitting = specs.filter((s) => entry.fits(s));
  if (fitting.length === 0) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'no allowed algorithm fits the key' });
  // Check now, so a short or mistyped key fails here rather than on the first token.
  let firstError: unknown;
  let ok = 0;
  for (const s of fitting) {
    try {
      entry.prepare(s);
      ok++;
    } catch (e) {
      firstError ??= e;
    }
  }
  if (ok === 0) throw firstError;
  return new SingleKey(entry);
}
