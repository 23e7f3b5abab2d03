// Ed25519 vectors through the Wasm core: RFC 8032 §7.1, every Wycheproof
// ed25519_test.json verdict, and the 12 ed25519-speccheck cases under our policy
// (strict RFC 8032, cofactorless, small-order keys refused at import). Each case
// runs twice: on the table-free path and with the key's table built.
import { describe, expect, it } from 'vitest';
import { getCore } from '../../src/wasm/instance.js';
import { importEd25519Key, type WasmKey } from '../../src/wasm/keys.js';
import { JwtError } from '../../src/errors.js';
import rfc from '../vectors/rfc/ed25519_rfc8032.json';
import wycheproof from '../vectors/wycheproof/ed25519_test.json';
import speccheck from '../vectors/ed25519-speccheck/cases.json';
import { hex } from './bytes.js';

const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const NEVER = 0xffffffff;

/**
 * The two verify paths (see assembly/ed25519/verify.ts): 'cold' keeps the key on
 * the table-free double-scalar multiplication, 'hot' builds its fixed-base table
 * at the first verify. Every case runs on both and must give the same verdict.
 */
type Path = 'cold' | 'hot';
const PATHS: Path[] = ['cold', 'hot'];

function sIsCanonical(sig: Uint8Array): boolean {
  if (sig.length !== 64) return false;
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
  return s < L;
}

/**
 * Import, verify, drop. A key the core refuses counts as "does not verify". The key goes through
 * importEd25519Key, which evicts the least recent key when every slot is taken: this file shares
 * one module graph (and the core's 64 slots) with every other corpus file, in any order.
 */
function verdict(
  pub: Uint8Array,
  msg: Uint8Array,
  sig: Uint8Array,
  path: Path = 'cold',
): { imported: boolean; valid: boolean } {
  const core = getCore();
  const previous = core.exports.ed25519_test_hot_after(path === 'hot' ? 0 : NEVER);
  let key: WasmKey;
  try {
    try {
      key = importEd25519Key(pub);
    } catch (err) {
      expect(err).toBeInstanceOf(JwtError);
      expect((err as JwtError).code).toBe('ERR_KEY_INVALID');
      return { imported: false, valid: false };
    }
    try {
      const slot = key.slot();
      const valid = core.verify('ed25519', slot, { message: msg, signature: sig });
      // The path that ran is the one asked for (a verify that stops at S >= L
      // or a bad length never reaches the point arithmetic, so builds nothing).
      const reached = sig.length === 64 && sIsCanonical(sig);
      expect(core.exports.ed25519_test_slot_hot(slot)).toBe(path === 'hot' && reached ? 1 : 0);
      return { imported: true, valid };
    } finally {
      key.drop();
    }
  } finally {
    core.exports.ed25519_test_hot_after(previous);
  }
}

describe('RFC 8032 §7.1', () => {
  for (const t of rfc.tests) {
    for (const path of PATHS) {
      it(`${t.name} (${path})`, () => {
        const pub = hex(t.public_key);
        const msg = hex(t.message);
        const sig = hex(t.signature);
        expect(verdict(pub, msg, sig, path)).toEqual({ imported: true, valid: true });
        // The same signature must fail once anything changes.
        const badSig = sig.slice();
        badSig[0]! ^= 1;
        expect(verdict(pub, msg, badSig, path).valid).toBe(false);
        const badMsg = new Uint8Array([...msg, 0]);
        expect(verdict(pub, badMsg, sig, path).valid).toBe(false);
      });
    }
  }
});

interface WycheproofGroup {
  publicKey: { pk: string };
  tests: { tcId: number; comment: string; msg: string; sig: string; result: string }[];
}

describe('Wycheproof ed25519_test.json', () => {
  const groups = (wycheproof as { testGroups: WycheproofGroup[] }).testGroups;
  const all = groups.flatMap((g) => g.tests.map((t) => ({ pk: g.publicKey.pk, ...t })));

  it('has all 151 tests', () => {
    expect(all.length).toBe(151);
  });

  for (const t of all) {
    for (const path of PATHS) {
      it(`tcId ${t.tcId} ${t.result}${t.comment ? ` (${t.comment})` : ''} (${path})`, () => {
        // This file has only "valid" and "invalid" verdicts (no "acceptable" to skip).
        expect(['valid', 'invalid']).toContain(t.result);
        const { valid } = verdict(hex(t.pk), hex(t.msg), hex(t.sig), path);
        expect(valid).toBe(t.result === 'valid');
      });
    }
  }
});

// Our expected verdict per case (see test/vectors/ed25519-speccheck/SOURCE.md and
// docs/ed25519-speccheck.md). `imported: false` means the key itself is refused.
const SPECCHECK: { imported: boolean; valid: boolean; why: string }[] = [
  { imported: false, valid: false, why: 'A has small order: refused at import (policy), though both equations hold' },
  { imported: false, valid: false, why: 'A has small order: refused at import, R mixed does not matter' },
  {
    imported: true,
    valid: true,
    why: 'A mixed (not small), R small order: [S]B = R + [k]A holds, R re-encodes to the same bytes',
  },
  {
    imported: true,
    valid: true,
    why: 'A and R mixed: the cofactorless equation holds; torsion is not forbidden by RFC 8032',
  },
  {
    imported: true,
    valid: false,
    why: 'holds only cofactored; we check the cofactorless equation (like OpenSSL/BoringSSL)',
  },
  {
    imported: true,
    valid: false,
    why: 'holds only cofactored with k not reduced mod L; we use k mod L and no cofactor',
  },
  { imported: true, valid: false, why: 'S >= L: RFC 8032 §5.1.7 requires 0 <= S < L' },
  { imported: true, valid: false, why: 'S far above L (top bits set): S < L check' },
  {
    imported: true,
    valid: false,
    why: "non-canonical R (x = 0, sign bit set): our R' encodes canonically, so the bytes never match",
  },
  { imported: true, valid: false, why: 'same non-canonical R, k over the received bytes: still no byte match' },
  {
    imported: false,
    valid: false,
    why: 'non-canonical A (x = 0 with sign bit set, §5.1.3 step 4), also small order: refused at import',
  },
  {
    imported: false,
    valid: false,
    why: 'same non-canonical A, k over the received bytes (OpenSSL accepts): refused at import',
  },
];

describe('ed25519-speccheck', () => {
  it('has 12 cases', () => {
    expect(speccheck.length).toBe(12);
  });
  speccheck.forEach((c, i) => {
    const want = SPECCHECK[i]!;
    for (const path of PATHS) {
      it(`case ${i}: ${want.valid ? 'accept' : 'reject'} (${want.why}) (${path})`, () => {
        expect(verdict(hex(c.pub_key), hex(c.message), hex(c.signature), path)).toEqual({
          imported: want.imported,
          valid: want.valid,
        });
      });
    }
  });
});
