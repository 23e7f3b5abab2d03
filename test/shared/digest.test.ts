// src/digest.ts, the library-side digest the guard keys its KV entries with:
// the same bytes as crypto.subtle.digest for strings (as UTF-8) and bytes.
import { describe, expect, it } from 'vitest';
import { digest } from '../../src/digest.js';
import { seededBytes } from './bytes.js';

const hex = (b: Uint8Array | ArrayBuffer) =>
  Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');

describe('digest', () => {
  it('equals crypto.subtle.digest for every hash, on text (UTF-8) and bytes', async () => {
    for (const hash of ['SHA-256', 'SHA-384', 'SHA-512'] as const) {
      for (const text of ['', 'abc', 'v1:policy:Zoë €']) {
        expect(hex(digest(hash, text)), `${hash} ${text}`).toBe(
          hex(await crypto.subtle.digest(hash, new TextEncoder().encode(text))),
        );
      }
      const bytes = seededBytes(3, 1000);
      expect(hex(digest(hash, bytes))).toBe(hex(await crypto.subtle.digest(hash, bytes as BufferSource)));
    }
  });

  it('digest_any_length: input longer than the core buffer (64 KiB) is hashed, not a core fault', async () => {
    // A DPoP access token or a JWK member comes from a request: a long one must not be ERR_WASM_CORE (a 500).
    for (const hash of ['SHA-256', 'SHA-512'] as const) {
      for (const n of [65_535, 65_536, 65_537, 200_001]) {
        const bytes = seededBytes(n, n);
        expect(hex(digest(hash, bytes)), `${hash} bytes ${n}`).toBe(
          hex(await crypto.subtle.digest(hash, bytes as BufferSource)),
        );
        const text = 'ä'.repeat(Math.ceil(n / 2)) + 'x';
        expect(hex(digest(hash, text)), `${hash} text ${n}`).toBe(
          hex(await crypto.subtle.digest(hash, new TextEncoder().encode(text))),
        );
      }
    }
  });
});
