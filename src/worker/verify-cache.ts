// L2: verified claims shared between isolates through KV (docs/decisions/0009-verdict-caches-tied-to-their-key.md).
// Key `v2:<policy id>:<key tag>:<base64url(SHA-256(token))>` (the token never leaves
// the isolate; the key tag names the key that proved it, key-tags.ts), value sealed under CACHE_KEY, life never past
// `exp` and never under KV's 60-second minimum. Any fault, timeout or bad entry is a miss.

import { encode } from '../b64.js';
import type { JWTPayload } from '../claims.js';
import { digest } from '../digest.js';
import type { Counters } from './counters.js';
import { bounded, KV_MIN_TTL, type KVLike } from './kv.js';
import { FIXED_KEYS_TAG } from './key-tags.js';
import type { Sealer } from './seal.js';
import { deepFreeze } from '../freeze.js';

export interface VerifyCacheOptions {
  kv: KVLike;
  sealer: Sealer;
  policyId: string;
  /** Longest life of an entry, seconds. */
  maxTtl: number;
  timeoutMs: number;
  counters: Counters;
}

export class KvVerifyCache {
  readonly #o: VerifyCacheOptions;

  constructor(options: VerifyCacheOptions) {
    this.#o = options;
  }

  /** `tag`: the proving key's (key-tags.ts); the default is the fixed-keys tag. */
  key(token: string, tag = FIXED_KEYS_TAG): string {
    return `v2:${this.#o.policyId}:${tag}:${encode(digest('SHA-256', token))}`;
  }

  /** The sealed payload for this token, or undefined (miss, fault, foreign or damaged entry). */
  async get(token: string, tag = FIXED_KEYS_TAG): Promise<JWTPayload | undefined> {
    const { kv, sealer, timeoutMs, counters } = this.#o;
    const key = this.key(token, tag);
    const value = await bounded(
      () => kv.get(key, 'text'),
      timeoutMs,
      null,
      () => counters.inc('l2_error'),
    );
    if (value === null) {
      counters.inc('l2_miss');
      return undefined;
    }
    const json = await sealer.open(key, value).catch(() => undefined);
    const payload = json === undefined ? undefined : parsePayload(json);
    if (payload === undefined) {
      counters.inc('l2_rejected_entry');
      return undefined;
    }
    return payload;
  }

  /** The write, for ctx.waitUntil; undefined when the entry would live under KV's minimum. */
  put(token: string, payload: JWTPayload, nowSeconds: number, tag = FIXED_KEYS_TAG): Promise<void> | undefined {
    const exp = payload.exp;
    if (typeof exp !== 'number') return undefined;
    const ttl = Math.min(this.#o.maxTtl, Math.floor(exp - nowSeconds));
    if (!(ttl >= KV_MIN_TTL)) return undefined;
    const { kv, sealer, counters } = this.#o;
    const key = this.key(token, tag);
    return sealer
      .seal(key, JSON.stringify(payload))
      .then((v) => kv.put(key, v, { expirationTtl: ttl }))
      .then(
        () => counters.inc('l2_write'),
        () => counters.inc('l2_write_error'),
      );
  }
}

function parsePayload(json: string): JWTPayload | undefined {
  try {
    const v: unknown = JSON.parse(json);
    // Frozen all the way down: L1 hands this one payload to every later request with the token.
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (deepFreeze(v) as JWTPayload) : undefined;
  } catch {
    return undefined;
  }
}
