// Values the guard keeps in KV are sealed with an HMAC under the deployment
// secret CACHE_KEY, bound to the KV key they are stored under. Someone who can
// write to the namespace but lacks the secret cannot inject an identity or a key
// set, nor move a genuine entry to another token's key.

import { decodeSegment, encode } from '../b64.js';
import { cacheKeyBytes } from './cache-key.js';

const PREFIX = 's1.';
const encoder = new TextEncoder();

export class Sealer {
  readonly #key: CryptoKey;

  private constructor(key: CryptoKey) {
    this.#key = key;
  }

  /** From CACHE_KEY (base64url, at least 32 bytes); undefined when the secret is not set. */
  static async fromSecret(secret: unknown): Promise<Sealer | undefined> {
    const raw = cacheKeyBytes(secret);
    if (raw === undefined) return undefined;
    const key = await crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return new Sealer(key);
  }

  async seal(kvKey: string, json: string): Promise<string> {
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', this.#key, bound(kvKey, json) as BufferSource));
    return `${PREFIX}${encode(tag)}.${json}`;
  }

  /** The JSON text when the seal holds for this key; undefined for anything else. */
  async open(kvKey: string, value: unknown): Promise<string | undefined> {
    if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined;
    const dot = value.indexOf('.', PREFIX.length);
    if (dot < 0) return undefined;
    const tag = decodeSegment(value, PREFIX.length, dot);
    if (tag === undefined || tag.length !== 32) return undefined;
    const json = value.slice(dot + 1);
    // crypto.subtle.verify compares in constant time.
    const ok = await crypto.subtle.verify('HMAC', this.#key, tag as BufferSource, bound(kvKey, json) as BufferSource);
    return ok ? json : undefined;
  }

  /** A keyed digest, for identifiers derived from secrets (never the secret itself). */
  async digest(label: string, data: Uint8Array): Promise<string> {
    const d = new Uint8Array(await crypto.subtle.sign('HMAC', this.#key, concat(encoder.encode(`${label}\n`), data) as BufferSource));
    return encode(d);
  }
}

function bound(kvKey: string, json: string): Uint8Array {
  return encoder.encode(`${kvKey}\n${json}`);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
