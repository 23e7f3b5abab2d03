// HMAC key slots through the JWT-level API: key size policy, full-length tags,
// bit flips, slot reuse, bounded memory, and no key material left behind.
import { describe, expect, it } from 'vitest';
import { getCore } from '../../src/wasm/instance.js';
import { coreMemory } from '../../src/wasm/core.js';
import { coreHmac } from '../../src/wasm/core-hash.js';
import { importHmacKey, type HmacAlg } from '../../src/wasm/keys.js';
import { verifyWasmKey } from './signature-hooks.js';
import { isJwtError } from '../../src/errors.js';
import { seededBytes, indexOfBytes } from './bytes.js';

const ALGS: [HmacAlg, 'SHA-256' | 'SHA-384' | 'SHA-512', number][] = [
  ['HS256', 'SHA-256', 32],
  ['HS384', 'SHA-384', 48],
  ['HS512', 'SHA-512', 64],
];

async function webCryptoTag(hash: string, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data as BufferSource));
}

describe.each(ALGS)('%s', (alg, hash, size) => {
  it('refuses keys shorter than the hash output (RFC 7518 §3.2) with ERR_KEY_TOO_SHORT', () => {
    let caught: unknown;
    try {
      importHmacKey(seededBytes(1, size - 1), alg);
    } catch (e) {
      caught = e;
    }
    expect(isJwtError(caught, 'ERR_KEY_TOO_SHORT')).toBe(true);
    expect(String((caught as Error).message)).not.toMatch(/[0-9a-f]{16}/);
  });

  it('accepts the right tag, and fails every single-bit flip of it', async () => {
    const secret = seededBytes(2, size);
    const message = seededBytes(3, 654);
    const key = importHmacKey(secret, alg);
    const tag = await webCryptoTag(hash, secret, message);
    expect(verifyWasmKey(key, message, tag)).toBe(true);
    for (let bit = 0; bit < tag.length * 8; bit++) {
      const bad = tag.slice();
      bad[bit >> 3]! ^= 1 << (bit & 7);
      if (verifyWasmKey(key, message, bad)) expect.fail(`bit ${bit} flip accepted`);
    }
    key.drop();
  });

  it('rejects truncated, extended and empty tags', async () => {
    const secret = seededBytes(4, size + 10);
    const message = seededBytes(5, 100);
    const key = importHmacKey(secret, alg);
    const tag = await webCryptoTag(hash, secret, message);
    expect(verifyWasmKey(key, message, tag.subarray(0, size - 1))).toBe(false);
    expect(verifyWasmKey(key, message, tag.subarray(0, 16))).toBe(false);
    expect(verifyWasmKey(key, message, new Uint8Array([...tag, 0]))).toBe(false);
    expect(verifyWasmKey(key, message, new Uint8Array(0))).toBe(false);
    key.drop();
  });

  it('hashes keys longer than the block first (RFC 2104 §2)', async () => {
    const secret = seededBytes(6, 300);
    const message = seededBytes(7, 77);
    const key = importHmacKey(secret, alg);
    expect(verifyWasmKey(key, message, await webCryptoTag(hash, secret, message))).toBe(true);
    key.drop();
  });

  it('leaves no key, key pad or inner digest in memory after import and verify', async () => {
    const secret = seededBytes(8, size);
    const message = seededBytes(9, 700);
    const key = importHmacKey(secret, alg);
    expect(verifyWasmKey(key, message, await webCryptoTag(hash, secret, message))).toBe(true);
    const memory = coreMemory(getCore());
    const ipad = secret.map((b) => b ^ 0x36);
    const opad = secret.map((b) => b ^ 0x5c);
    expect(indexOfBytes(memory, secret)).toBe(-1);
    expect(indexOfBytes(memory, ipad)).toBe(-1);
    expect(indexOfBytes(memory, opad)).toBe(-1);
    key.drop();
  });

  it("leaves no key pad in the looped compression's message schedule (an isolate's first blocks)", async () => {
    // The looped compression (assembly/sha2-first-use.ts) keeps the block as big-endian
    // words, so the pads would sit in memory word-reversed if the schedule were not wiped.
    const previous = getCore().exports.sha2_test_warm_after(0xffffffff);
    try {
      const secret = seededBytes(10, size);
      const message = seededBytes(11, 300);
      // Checked right after the import: the last block it compresses is the outer pad.
      const key = importHmacKey(secret, alg);
      const word = hash === 'SHA-256' ? 4 : 8;
      const reversed = (b: Uint8Array) => b.map((_, i) => b[i - (i % word) + (word - 1 - (i % word))]!);
      const memory = coreMemory(getCore());
      for (const pad of [0x36, 0x5c]) {
        const padded = secret.map((b) => b ^ pad);
        expect(indexOfBytes(memory, reversed(padded))).toBe(-1);
        expect(indexOfBytes(memory, padded)).toBe(-1);
      }
      expect(verifyWasmKey(key, message, await webCryptoTag(hash, secret, message))).toBe(true);
      key.drop();
    } finally {
      getCore().exports.sha2_test_warm_after(previous);
    }
  });
});

describe('key slots and memory', () => {
  it('reuses slots: importing and dropping many keys never runs out', () => {
    const total = getCore().exports.hmac_slots();
    for (let round = 0; round < 4; round++) {
      const keys = [];
      for (let i = 0; i < total; i++) keys.push(importHmacKey(seededBytes(round * 1000 + i, 32), 'HS256'));
      for (const k of keys) k.drop();
    }
  });

  it('grows the slot table when every slot is taken, and keeps the keys already imported', () => {
    const before = getCore().exports.hmac_slots();
    const secret = (i: number): Uint8Array => seededBytes(5000 + i, 32);
    const keys = [];
    try {
      for (let i = 0; i <= before; i++) keys.push(importHmacKey(secret(i), 'HS256'));
      expect(getCore().exports.hmac_slots()).toBeGreaterThan(before);
      for (const i of [0, 1, before - 1, before]) {
        const tag = coreHmac(getCore(), keys[i]!.slot(), 'message');
        const fresh = importHmacKey(secret(i), 'HS256');
        expect(verifyWasmKey(fresh, 'message', tag)).toBe(true);
        fresh.drop();
      }
    } finally {
      for (const k of keys) k.drop();
    }
  });

  it('does not grow memory over 100,000 verifications of 2 KB inputs', () => {
    const key = importHmacKey(seededBytes(10, 32), 'HS256');
    const message = seededBytes(11, 2048);
    const tag = coreHmac(getCore(), key.slot(), message);
    const before = getCore().exports.memory.buffer.byteLength;
    let accepted = 0;
    for (let i = 0; i < 100_000; i++) if (verifyWasmKey(key, message, tag)) accepted++;
    expect(accepted).toBe(100_000);
    expect(getCore().exports.memory.buffer.byteLength).toBe(before);
    key.drop();
  });

  it('refuses a dropped key with a typed error instead of using a recycled slot', () => {
    const key = importHmacKey(seededBytes(12, 32), 'HS256');
    key.drop();
    let caught: unknown;
    try {
      verifyWasmKey(key, 'abc', new Uint8Array(32));
    } catch (e) {
      caught = e;
    }
    expect(isJwtError(caught, 'ERR_KEY_INVALID')).toBe(true);
  });

  it('answers bad raw calls with status codes, never a trap', () => {
    const x = getCore().exports;
    expect(x.hmac_verify(x.hmac_slots(), 10, 32)).toBe(-1);
    expect(x.hmac_verify(0, x.input_cap.value + 1, 32)).toBe(-2);
    expect(x.hmac_verify(0, 10, 65)).toBe(-2);
    expect(x.hmac_import(0, 9, 10)).toBe(-3);
    expect(x.hmac_import(0xffffffff, 1, 10)).toBe(-1);
    expect(x.hmac_compute(x.hmac_slots() - 1, 10)).toBe(-5);
    expect(x.hash(0, 10)).toBe(-3);
    expect(x.hash(1, 0xffffffff)).toBe(-2);
    expect(x.hash_update(10)).toBe(-3);
    // hmac_sign_jws: lengths past INPUT, PAYLOAD or EXTRA, members with no JSON object to go into, an empty slot.
    expect(x.hmac_sign_jws(0, x.input_cap.value + 1, 2, 0)).toBe(-2);
    expect(x.hmac_sign_jws(0, 10, 49_153, 0)).toBe(-2);
    expect(x.hmac_sign_jws(0, 10, 20, 257)).toBe(-2);
    expect(x.hmac_sign_jws(0, 10, 1, 5)).toBe(-2);
    expect(x.hmac_sign_jws(0, 10, 49_150, 5)).toBe(-2);
    expect(x.hmac_sign_jws(0, 65_000, 1_000, 0)).toBe(-2);
    expect(x.hmac_sign_jws(x.hmac_slots(), 10, 2, 0)).toBe(-1);
    expect(x.hmac_sign_jws(x.hmac_slots() - 1, 10, 2, 0)).toBe(-5);
  });
});
