// One configured key (`key` in the options) as a key source: the token's kid is
// not consulted, and the key is imported for every allowed algorithm it fits at
// construction, so a short or broken key fails there rather than on the first token.

import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import { KeyEntry, type KeyInput } from './entry.js';
import { KEY_SOURCE, type KeySource } from './source.js';

/** A single configured key; the token's kid is not consulted. */
export class SingleKey implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  constructor(readonly entry: KeyEntry) {}
  select(spec: AlgSpec): KeyEntry {
    if (!this.entry.fits(spec)) throw new JwtError('ERR_KEY_ALG_MISMATCH');
    return this.entry;
  }
}

export function singleKey(input: KeyInput, specs: AlgSpec[]): SingleKey {
  const entry = KeyEntry.from(input);
  if (!entry.usable) throw new JwtError('ERR_KEY_INVALID', { reason: 'use, key_ops or alg of the key rule out verification' });
  const fitting = specs.filter((s) => entry.fits(s));
  if (fitting.length === 0) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'no allowed algorithm fits the key' });
  // Import now, so a short or broken key fails here rather than on the first token.
  let firstError: unknown;
  let ok = 0;
  for (const s of fitting) {
    try {
      const h = entry.handle(s);
      if (h instanceof Promise) h.catch(() => undefined);
      ok++;
    } catch (e) {
      firstError ??= e;
    }
  }
  if (ok === 0) throw firstError;
  return new SingleKey(entry);
}
