// Differential test against node:crypto (OpenSSL): seeded keys and messages,
// signed by node:crypto, verified by the Wasm core and by node:crypto; both must
// agree on every original and every mutated signature. Each key verifies its first
// HOT_AFTER_HERE messages on the table-free path and the rest with its table built,
// so both paths of assembly/ed25519/verify.ts see every kind of case.
import { describe, expect, it } from 'vitest';
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { getCore } from '../../src/wasm/instance.js';
import { JwtError } from '../../src/errors.js';
import { ed25519Drop, ed25519Import } from '../../src/wasm/core.js';
import { seededBytes } from '../shared/bytes.js';

const KEYS = 2000;
const MESSAGES_PER_KEY = 10; // 20,000 signatures
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const HOT_AFTER_HERE = 5; // half of MESSAGES_PER_KEY

// Set for this file; each test file gets its own core instance.
getCore().exports.ed25519_test_hot_after(HOT_AFTER_HERE);

interface Case {
  pub: Uint8Array;
  publicKey: KeyObject;
  msg: Uint8Array;
  sig: Uint8Array;
}

function keyFromSeed(seed: Uint8Array): { privateKey: KeyObject; publicKey: KeyObject; pub: Uint8Array } {
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410), so keys are reproducible.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const pub = new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url'));
  return { privateKey, publicKey, pub };
}

function publicKeyFromRaw(pub: Uint8Array): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(pub).toString('base64url') },
    format: 'jwk',
  });
}

function nodeVerify(publicKey: KeyObject, msg: Uint8Array, sig: Uint8Array): boolean {
  return verify(null, msg, publicKey, sig);
}

/** Verifies that ran on the table-free path and with the key's table. */
const paths = { cold: 0, hot: 0 };

function oursWithKey(pub: Uint8Array, fn: (check: (msg: Uint8Array, sig: Uint8Array) => boolean) => void): boolean {
  const core = getCore();
  let slot: number;
  try {
    slot = ed25519Import(core, pub);
  } catch (err) {
    // Only a refused key counts as "does not verify"; anything else (no free slot) is a test fault.
    if (err instanceof JwtError && err.code === 'ERR_KEY_INVALID') return false;
    throw err;
  }
  try {
    fn((msg, sig) => {
      const valid = core.verify('ed25519', slot, { message: msg, signature: sig });
      // The table is built when a verify starts (the one after HOT_AFTER_HERE), so
      // the flag read after the verify tells which path that verify took.
      if (core.exports.ed25519_test_slot_hot(slot) === 1) paths.hot++;
      else paths.cold++;
      return valid;
    });
  } finally {
    ed25519Drop(core, slot);
  }
  return true;
}

function makeCases(): Case[][] {
  const perKey: Case[][] = [];
  for (let k = 0; k < KEYS; k++) {
    const { privateKey, publicKey, pub } = keyFromSeed(seededBytes(0x5eed0000 + k, 32));
    const cases: Case[] = [];
    for (let m = 0; m < MESSAGES_PER_KEY; m++) {
      const s = 1 + k * MESSAGES_PER_KEY + m;
      const len = seededBytes(s * 7919, 2).reduce((a, b) => a * 256 + b, 0) % 2049; // 0..2048
      const msg = seededBytes(s, len);
      cases.push({ pub, publicKey, msg, sig: new Uint8Array(sign(null, msg, privateKey)) });
    }
    perKey.push(cases);
  }
  return perKey;
}

const perKey = makeCases();
const flat = perKey.flat();

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = bytes.slice();
  out[bit >> 3]! ^= 1 << (bit & 7);
  return out;
}

describe('Ed25519 vs node:crypto', () => {
  it(`${flat.length} signatures over ${KEYS} keys, messages of 0..2048 bytes: all verify in both`, () => {
    expect(flat.length).toBeGreaterThanOrEqual(20_000);
    paths.cold = paths.hot = 0;
    let ours = 0;
    let theirs = 0;
    for (const cases of perKey) {
      const imported = oursWithKey(cases[0]!.pub, (check) => {
        for (const c of cases) if (check(c.msg, c.sig)) ours++;
      });
      expect(imported).toBe(true);
      for (const c of cases) if (nodeVerify(c.publicKey, c.msg, c.sig)) theirs++;
    }
    expect(ours).toBe(flat.length);
    expect(theirs).toBe(flat.length);
    // Exactly HOT_AFTER_HERE verifies per key on the table-free path, the rest with tables.
    expect(paths.cold).toBe(KEYS * HOT_AFTER_HERE);
    expect(paths.hot).toBe(KEYS * (MESSAGES_PER_KEY - HOT_AFTER_HERE));
    const lengths = new Set(flat.map((c) => c.msg.length));
    expect(Math.min(...lengths)).toBeLessThan(16);
    expect(Math.max(...lengths)).toBeGreaterThan(2000);
  });

  it('every single-bit flip of the signature fails in both (40 signatures x 512 bits)', () => {
    paths.cold = paths.hot = 0;
    for (const c of flat.slice(0, 40)) {
      oursWithKey(c.pub, (check) => {
        for (let bit = 0; bit < 512; bit++) {
          const bad = flipBit(c.sig, bit);
          expect(check(c.msg, bad)).toBe(false);
          expect(nodeVerify(c.publicKey, c.msg, bad)).toBe(false);
        }
        expect(check(c.msg, c.sig)).toBe(true);
      });
    }
    // Flips in the top bits of S give S >= L, rejected before either path runs.
    expect(paths.cold).toBe(40 * HOT_AFTER_HERE);
    expect(paths.hot).toBeGreaterThan(40 * 400);
  });

  it('every single-bit flip of the public key fails in both (4 keys x 256 bits)', () => {
    for (const cases of perKey.slice(0, 4)) {
      const c = cases[0]!;
      for (let bit = 0; bit < 256; bit++) {
        const bad = flipBit(c.pub, bit);
        let ours = false;
        oursWithKey(bad, (check) => {
          ours = check(c.msg, c.sig);
        });
        expect(ours).toBe(false);
        let theirs = false;
        try {
          theirs = nodeVerify(publicKeyFromRaw(bad), c.msg, c.sig);
        } catch {
          theirs = false; // node refused the key
        }
        expect(theirs).toBe(false);
      }
    }
  });

  it(
    'single-bit flips of the message fail in both (300 signatures, every bit of short ones, 16 random bits ' +
      'otherwise)',
    () => {
      const cases = flat.filter((c) => c.msg.length > 0).slice(0, 300);
      for (const [i, c] of cases.entries()) {
        const bits = c.msg.length * 8;
        const picks =
          bits <= 128
            ? [...Array(bits).keys()]
            : Array.from(seededBytes(77 + i, 32))
                .map((b, j) => (b * 4099 + j * 7919) % bits)
                .slice(0, 16);
        oursWithKey(c.pub, (check) => {
          for (const bit of picks) {
            const bad = flipBit(c.msg, bit);
            expect(check(bad, c.sig)).toBe(false);
            expect(nodeVerify(c.publicKey, bad, c.sig)).toBe(false);
          }
        });
      }
    },
  );

  it('S + L (same residue, non-canonical S) fails in both (2,000 signatures)', () => {
    for (const c of flat.slice(0, 2000)) {
      let s = 0n;
      for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(c.sig[32 + i]!);
      s += L; // < 2^254, still fits the 32 bytes
      const bad = c.sig.slice();
      for (let i = 0; i < 32; i++) bad[32 + i] = Number((s >> BigInt(8 * i)) & 0xffn);
      oursWithKey(c.pub, (check) => expect(check(c.msg, bad)).toBe(false));
      expect(nodeVerify(c.publicKey, c.msg, bad)).toBe(false);
    }
  });
});
