// The Ed25519 key-slot interface of the Wasm core: status codes, slot reuse
// without leaks, and no trap on any input (bad slots, lengths, random bytes).
import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { getCore } from '../../src/wasm/instance.js';
import { importEd25519Key } from '../../src/wasm/keys.js';
import { verifyWasmKey } from './signature-hooks.js';
import { seededBytes } from './bytes.js';

const VALID = 1,
  INVALID = 0,
  ERR_SLOT = -1,
  ERR_LENGTH = -2,
  ERR_KEY = -4,
  ERR_EMPTY_SLOT = -5;

function keyPair(seed: number) {
  const secret = seededBytes(seed, 32);
  return { secret, pub: ed25519.getPublicKey(secret) };
}

/** Raw exports, so the status codes themselves are checked. */
function raw() {
  const core = getCore();
  const e = core.exports;
  const mem = () => new Uint8Array(e.memory.buffer);
  return {
    slots: e.ed25519_slots.value,
    cap: e.input_cap.value,
    import(slot: number, pub: Uint8Array): number {
      mem().set(pub, e.input_ptr.value);
      return e.ed25519_import(slot);
    },
    verify(slot: number, msg: Uint8Array, sig: Uint8Array, len = msg.length): number {
      mem().set(msg, e.input_ptr.value);
      mem().set(sig, e.sig_ptr.value);
      return e.ed25519_verify(slot, len);
    },
    drop: (slot: number): number => e.ed25519_drop(slot),
  };
}

// The last slot, so the JS allocator (which hands out slot 0 first) is not disturbed.
const SLOT = 63;

describe('Ed25519 slots', () => {
  it('rejects slots out of range with ERR_SLOT', () => {
    const r = raw();
    const { pub } = keyPair(1);
    for (const slot of [r.slots, r.slots + 1, 0x7fffffff, -1]) {
      expect(r.import(slot, pub)).toBe(ERR_SLOT);
      expect(r.verify(slot, new Uint8Array(1), new Uint8Array(64))).toBe(ERR_SLOT);
      expect(r.drop(slot)).toBe(ERR_SLOT);
    }
  });

  it('answers ERR_EMPTY_SLOT before import and after drop, ERR_LENGTH past the input cap', () => {
    const r = raw();
    const { secret, pub } = keyPair(2);
    const msg = seededBytes(3, 100);
    const sig = ed25519.sign(msg, secret);
    expect(r.drop(SLOT)).toBe(VALID);
    expect(r.verify(SLOT, msg, sig)).toBe(ERR_EMPTY_SLOT);
    expect(r.import(SLOT, pub)).toBe(VALID);
    expect(r.verify(SLOT, msg, sig)).toBe(VALID);
    expect(r.verify(SLOT, msg, sig, r.cap + 1)).toBe(ERR_LENGTH);
    expect(r.drop(SLOT)).toBe(VALID);
    expect(r.verify(SLOT, msg, sig)).toBe(ERR_EMPTY_SLOT);
  });

  it('reuses a slot without leaking the previous key', () => {
    const r = raw();
    const a = keyPair(4);
    const b = keyPair(5);
    const msg = seededBytes(6, 650);
    const sigA = ed25519.sign(msg, a.secret);
    const sigB = ed25519.sign(msg, b.secret);
    expect(r.import(SLOT, a.pub)).toBe(VALID);
    expect(r.verify(SLOT, msg, sigA)).toBe(VALID);
    expect(r.verify(SLOT, msg, sigB)).toBe(INVALID);
    // Re-import over a live slot, and after a drop: only the newest key counts.
    expect(r.import(SLOT, b.pub)).toBe(VALID);
    expect(r.verify(SLOT, msg, sigA)).toBe(INVALID);
    expect(r.verify(SLOT, msg, sigB)).toBe(VALID);
    expect(r.drop(SLOT)).toBe(VALID);
    expect(r.import(SLOT, a.pub)).toBe(VALID);
    expect(r.verify(SLOT, msg, sigA)).toBe(VALID);
    expect(r.verify(SLOT, msg, sigB)).toBe(INVALID);
    // A failed import empties the slot rather than leaving the old key in place.
    const notOnCurve = new Uint8Array(32);
    notOnCurve[0] = 2; // y = 2: (y^2 - 1)/(d y^2 + 1) is not a square
    expect(r.import(SLOT, notOnCurve)).toBe(ERR_KEY);
    expect(r.verify(SLOT, msg, sigA)).toBe(ERR_EMPTY_SLOT);
    r.drop(SLOT);
  });

  it('refuses non-canonical and small-order keys with ERR_KEY', () => {
    const r = raw();
    const p = new Uint8Array(32).fill(0xff);
    p[0] = 0xed;
    p[31] = 0x7f; // y = p: non-canonical encoding of y = 0
    const identity = new Uint8Array(32);
    identity[0] = 1; // y = 1, x = 0: the neutral element (order 1)
    const negZero = identity.slice();
    negZero[31]! |= 0x80; // x = 0 with the sign bit set (RFC 8032 §5.1.3 step 4)
    const order2 = new Uint8Array(32).fill(0xff);
    order2[0] = 0xec;
    order2[31] = 0x7f; // y = -1: (0, -1) has order 2
    for (const k of [p, identity, negZero, order2]) expect(r.import(SLOT, k)).toBe(ERR_KEY);
    r.drop(SLOT);
  });

  it('allocates a slot table once: re-imports and verifies do not grow memory', () => {
    const r = raw();
    const e = getCore().exports;
    const memory = e.memory;
    const previous = e.ed25519_test_hot_after(0); // build each key's table at its first verify
    try {
      const first = keyPair(8);
      const msg0 = seededBytes(9, 100);
      expect(r.import(SLOT, first.pub)).toBe(VALID);
      expect(e.ed25519_test_slot_hot(SLOT)).toBe(0); // import builds nothing
      expect(r.verify(SLOT, msg0, ed25519.sign(msg0, first.secret))).toBe(VALID); // allocates this slot's table (once)
      expect(e.ed25519_test_slot_hot(SLOT)).toBe(1);
      const before = memory.buffer.byteLength;
      for (let i = 0; i < 20; i++) {
        const { secret, pub } = keyPair(100 + i);
        expect(r.import(SLOT, pub)).toBe(VALID);
        expect(e.ed25519_test_slot_hot(SLOT)).toBe(0);
        for (let j = 0; j < 25; j++) {
          const msg = seededBytes(i * 100 + j, 2000);
          expect(r.verify(SLOT, msg, ed25519.sign(msg, secret))).toBe(VALID);
        }
        expect(e.ed25519_test_slot_hot(SLOT)).toBe(1);
        expect(r.drop(SLOT)).toBe(VALID);
        expect(e.ed25519_test_slot_hot(SLOT)).toBe(0);
      }
      expect(memory.buffer.byteLength).toBe(before);
    } finally {
      e.ed25519_test_hot_after(previous);
    }
  });

  it("builds a key's table after the threshold, with the same verdicts before and after", () => {
    const r = raw();
    const e = getCore().exports;
    const n = 6;
    const previous = e.ed25519_test_hot_after(n);
    try {
      const a = keyPair(20);
      const b = keyPair(21);
      expect(r.import(SLOT, a.pub)).toBe(VALID);
      for (let i = 0; i < 3 * n; i++) {
        const msg = seededBytes(2000 + i, i * 37);
        const good = ed25519.sign(msg, a.secret);
        const other = ed25519.sign(msg, b.secret);
        const flipped = good.slice();
        flipped[i % 64]! ^= 1 << (i % 8);
        // Three verifies per round; the table is built at verify n + 1 of this key.
        const done = 3 * i;
        expect(e.ed25519_test_slot_hot(SLOT)).toBe(done > n ? 1 : 0);
        expect(r.verify(SLOT, msg, good)).toBe(VALID);
        expect(r.verify(SLOT, msg, other)).toBe(INVALID);
        expect(r.verify(SLOT, msg, flipped)).toBe(INVALID);
      }
      expect(e.ed25519_test_slot_hot(SLOT)).toBe(1);
      // A new key in the same slot starts cold again.
      expect(r.import(SLOT, b.pub)).toBe(VALID);
      expect(e.ed25519_test_slot_hot(SLOT)).toBe(0);
      const msg = seededBytes(2999, 64);
      expect(r.verify(SLOT, msg, ed25519.sign(msg, b.secret))).toBe(VALID);
      expect(r.verify(SLOT, msg, ed25519.sign(msg, a.secret))).toBe(INVALID);
      expect(e.ed25519_test_slot_hot(SLOT)).toBe(0);
      expect(e.ed25519_test_slot_hot(r.slots)).toBe(ERR_SLOT);
    } finally {
      e.ed25519_test_hot_after(previous);
      r.drop(SLOT);
    }
  });

  it('never traps on random keys and signatures', () => {
    const r = raw();
    let imported = 0;
    for (let i = 0; i < 40; i++) {
      const key = seededBytes(1000 + i, 32);
      const status = r.import(SLOT, key);
      expect([VALID, ERR_KEY]).toContain(status);
      if (status !== VALID) continue;
      imported++;
      for (let j = 0; j < 5; j++) {
        const sig = seededBytes(5000 + 10 * i + j, 64);
        if (j === 0) sig.fill(0xff);
        expect(r.verify(SLOT, seededBytes(i + j, i * 7), sig)).toBe(INVALID);
      }
    }
    // About half of random y values are on the curve; make sure both paths ran.
    expect(imported).toBeGreaterThan(5);
    expect(imported).toBeLessThan(35);
    r.drop(SLOT);
  });
});

describe('Ed25519 through src/wasm/keys', () => {
  it('importEd25519Key / WasmHandle.verify / drop', () => {
    const { secret, pub } = keyPair(7);
    const msg = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiIxMjM0In0';
    const sig = ed25519.sign(new TextEncoder().encode(msg), secret);
    const key = importEd25519Key(pub);
    expect(verifyWasmKey(key, msg, sig)).toBe(true);
    expect(verifyWasmKey(key, msg + 'x', sig)).toBe(false);
    expect(verifyWasmKey(key, msg, sig.subarray(0, 63))).toBe(false);
    key.drop();
    expect(() => verifyWasmKey(key, msg, sig)).toThrow();
    expect(() => importEd25519Key(new Uint8Array(31))).toThrow();
  });
});
