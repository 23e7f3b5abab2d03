// src/digest.ts, the library-side digest the guard keys its KV entries with:
// the same bytes as crypto.subtle.digest for strings (as UTF-8) and bytes.
import { describe, expect, it } from 'vitest';
import { digest } from '../../src/digest.js';
import { seededBytes } from './bytes.js';

const hex = (b: Uint8Array | ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');

describe('digest', () => {
  it('equals crypto.subtle.digest for every hash, on text (UTF-8) and bytes', async () => {
    for (const hash of ['SHA-256', 'SHA-384', 'SHA-512'] as const) {
      for (const text of ['', 'abc', 'v1:policy:Zoë €']) {
        expect(hex(digest(hash, text)), `${hash} ${text}`).toBe(hex(await crypto.subtle.digest(hash, new TextEncoder().encode(text))));
      }
      const bytes = seededBytes(3, 1000);
      expect(hex(digest(hash, bytes))).toBe(hex(await crypto.subtle.digest(hash, bytes as BufferSource)));
    }
  });
});
