// Which key an L2 (KV) verify entry was proved by, as part of its KV key: a key set
// refresh that drops or replaces the key leaves the entry unreachable, and a cold
// isolate reaches it only once its own set (memory, the KV key-set copy, or the
// issuer) still holds that key. Issuers whose keys are fixed by the config (inline
// `jwks`, `secretBinding`) share one tag: the policy id already names their keys.

import { algSpec } from '../algorithms.js';
import { encode } from '../b64.js';
import { digest } from '../digest.js';
import type { KeyEntry } from '../keys/entry.js';
import type { KeySource } from '../keys/source.js';

/** The tag of every key an issuer holds in its config. */
export const FIXED_KEYS_TAG = '-';

/** A key and its tag, for the L2 read and the L1 entry it fills. */
export interface TaggedKey {
  tag: string;
  key: KeyEntry | undefined;
}

/**
 * Tags of the keys behind L2 entries, per issuer.
 *
 * @example
 * const tags = new KeyTags(new Map([[iss, remoteSet]]));
 * const now = await tags.current(iss, 'ES256', kid); // undefined: no key for it now, skip L2
 * tags.of(iss, verifiedBy); // the tag to write under
 */
export class KeyTags {
  readonly #sources: ReadonlyMap<string, KeySource>;
  readonly #tags = new WeakMap<KeyEntry, string>();

  /** `sources`: the issuers whose key sets are fetched (any other issuer's keys are fixed). */
  constructor(sources: ReadonlyMap<string, KeySource>) {
    this.#sources = sources;
  }

  /**
   * The key that would verify a token of `iss` with this alg and kid now, and its tag:
   * from memory when the set is fresh, else after the source loads it (memory, KV,
   * the issuer). undefined when it has none (the library's verify will say why).
   */
  current(iss: string, alg: string, kid: string | undefined): TaggedKey | Promise<TaggedKey | undefined> | undefined {
    const source = this.#sources.get(iss);
    if (source === undefined) return { tag: FIXED_KEYS_TAG, key: undefined };
    const spec = algSpec(alg);
    if (spec === undefined) return undefined;
    const known = source.peek?.(spec, kid);
    if (known !== undefined) return this.#tagged(known);
    let selected: ReturnType<KeySource['select']>;
    try {
      selected = source.select(spec, kid);
    } catch {
      return undefined;
    }
    if (!(selected instanceof Promise)) return this.#tagged(selected);
    return selected.then(
      (k) => this.#tagged(k),
      () => undefined,
    );
  }

  /** The tag to write an entry under, for a token of `iss` the library verified with `key`. */
  of(iss: string, key: KeyEntry | undefined): string | undefined {
    if (!this.#sources.has(iss)) return FIXED_KEYS_TAG;
    return key === undefined ? undefined : this.#tagged(key)?.tag;
  }

  #tagged(key: KeyEntry): TaggedKey | undefined {
    let tag = this.#tags.get(key);
    if (tag === undefined) {
      if (key.fingerprint === undefined) return undefined;
      // 16 base64url characters (96 bits) of the key's identity: never the key material itself.
      tag = encode(digest('SHA-256', key.fingerprint)).slice(0, 16);
      this.#tags.set(key, tag);
    }
    return { tag, key };
  }
}
