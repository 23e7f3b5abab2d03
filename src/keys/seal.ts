// A seal for what edgejwt keeps in a shared cache (Workers KV, the Cache API): an
// HMAC-SHA-256 tag under a secret the deployment holds, bound to the entry's key. A
// writer without the secret cannot plant a key set or an identity, nor move a genuine
// entry to another key. The guard seals its KV entries with this (CACHE_KEY), and the
// library's Cache API store (cache-store.ts) its entries.

import { decodeSegment, encode } from '../b64.js';
import { optionsError } from '../options-error.js';

const PREFIX = 's1.';
const encoder = new TextEncoder();
/** Fewer random bytes than this make a guessable HMAC key. */
const MIN_KEY_BYTES = 32;

/**
 * Seals and opens JSON text for one cache key. Build it with createSealer.
 *
 * @example
 * const sealer = await createSealer(env.CACHE_KEY);
 * const value = await sealer.seal('jwks:https://id.example/jwks', text);
 * await sealer.open('jwks:https://id.example/jwks', value); // text; undefined for anything else
 */
export class Sealer {
  readonly #key: CryptoKey;

  private constructor(key: CryptoKey) {
    this.#key = key;
  }

  /** From at least 32 secret random bytes (ERR_OPTIONS_INVALID otherwise). */
  static async fromKey(raw: Uint8Array): Promise<Sealer> {
    if (!(raw instanceof Uint8Array) || raw.length < MIN_KEY_BYTES) {
      throw optionsError('seal', `expected at least ${MIN_KEY_BYTES} secret random bytes`);
    }
    const key = await crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return new Sealer(key);
  }

  async seal(cacheKey: string, json: string): Promise<string> {
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', this.#key, bound(cacheKey, json) as BufferSource));
    return `${PREFIX}${encode(tag)}.${json}`;
  }

  /** The JSON text when the seal holds for this key; undefined for anything else. */
  async open(cacheKey: string, value: unknown): Promise<string | undefined> {
    if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined;
    const dot = value.indexOf('.', PREFIX.length);
    if (dot < 0) return undefined;
    const tag = decodeSegment(value, PREFIX.length, dot);
    if (tag === undefined || tag.length !== 32) return undefined;
    const json = value.slice(dot + 1);
    // crypto.subtle.verify compares in constant time.
    const signed = bound(cacheKey, json) as BufferSource;
    return (await crypto.subtle.verify('HMAC', this.#key, tag as BufferSource, signed)) ? json : undefined;
  }

  /** A keyed digest, for identifiers derived from secrets or names (never the secret itself). */
  async digest(label: string, data: Uint8Array): Promise<string> {
    const msg = concat(encoder.encode(`${label}\n`), data);
    return encode(new Uint8Array(await crypto.subtle.sign('HMAC', this.#key, msg as BufferSource)));
  }
}

/**
 * A Sealer from a secret: at least 32 random bytes, or their base64url text (e.g. a
 * Workers secret made with `openssl rand -base64 32 | tr '+/' '-_' | tr -d =`).
 * Throws ERR_OPTIONS_INVALID for anything shorter or not base64url.
 *
 * @example
 * import { cacheApiStore, createSealer } from 'edgejwt';
 * const store = cacheApiStore({ seal: await createSealer(env.CACHE_KEY) });
 */
export function createSealer(secret: string | Uint8Array): Promise<Sealer> {
  const raw = typeof secret === 'string' ? decodeSegment(secret.trim(), 0, secret.trim().length) : secret;
  if (raw === undefined) return Promise.reject(optionsError('seal', 'expected base64url of at least 32 random bytes'));
  return Sealer.fromKey(raw);
}

function bound(cacheKey: string, json: string): Uint8Array {
  return encoder.encode(`${cacheKey}\n${json}`);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
