// Ed25519 slots are a bounded cache of per-key tables: more live keys than slots
// must all keep verifying (the least recently used gives its slot up and imports
// again when next used), and memory must stay bounded by the slot count.
import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { getCore } from '../../src/wasm/instance.js';
import { importEd25519Key, type WasmKey } from '../../src/wasm/keys.js';
import { verifyWasmKey } from './signature-hooks.js';
import { seededBytes } from './bytes.js';

describe('Ed25519 slot cache', () => {
  // hotAfter = 0: every key builds its table at its first verify (the most memory);
  // the default: keys this cold never build one.
  for (const [label, hotAfter] of [
    ['tables built at first verify', 0],
    ['default threshold', -1],
  ] as const) {
    it(`keeps more live keys than slots verifying, with memory bounded (${label})`, () => {
      const e = getCore().exports;
      const slots = e.ed25519_slots.value;
      const previous = hotAfter < 0 ? -1 : e.ed25519_test_hot_after(hotAfter);
      const message = seededBytes(70, 300);
      const pairs = Array.from({ length: slots + 16 }, (_, i) => {
        const secret = seededBytes(7000 + i, 32);
        return { pub: ed25519.getPublicKey(secret), sig: ed25519.sign(message, secret) };
      });
      const keys: WasmKey[] = [];
      try {
        // Fill every slot once and verify with each key, so every table that this
        // threshold builds is allocated; memory must not grow after.
        for (const p of pairs.slice(0, slots)) keys.push(importEd25519Key(p.pub));
        for (let i = 0; i < slots; i++) expect(verifyWasmKey(keys[i]!, message, pairs[i]!.sig)).toBe(true);
        for (let i = 0; i < slots; i++) expect(e.ed25519_test_slot_hot(keys[i]!.slot())).toBe(hotAfter === 0 ? 1 : 0);
        const filled = e.memory.buffer.byteLength;
        for (const p of pairs.slice(slots)) keys.push(importEd25519Key(p.pub));
        // Twice round: every key, evicted or not, verifies its own signature and not its neighbour's.
        for (let round = 0; round < 2; round++) {
          for (let i = 0; i < keys.length; i++) {
            expect(verifyWasmKey(keys[i]!, message, pairs[i]!.sig), `key ${i}`).toBe(true);
            expect(verifyWasmKey(keys[i]!, message, pairs[(i + 1) % keys.length]!.sig), `key ${i} vs ${i + 1}`).toBe(
              false,
            );
          }
        }
        expect(e.memory.buffer.byteLength).toBe(filled);
      } finally {
        for (const k of keys) k.drop();
        if (previous >= 0) e.ed25519_test_hot_after(previous);
      }
    });
  }

  it('keeps the most recently used keys resident', () => {
    const slots = getCore().exports.ed25519_slots.value;
    const message = seededBytes(71, 50);
    const secret = seededBytes(8000, 32);
    const hot = importEd25519Key(ed25519.getPublicKey(secret));
    const sig = ed25519.sign(message, secret);
    const cold: WasmKey[] = [];
    try {
      const hotSlot = hot.slot();
      for (let i = 0; i < slots * 2; i++) {
        cold.push(importEd25519Key(ed25519.getPublicKey(seededBytes(8001 + i, 32))));
        expect(verifyWasmKey(hot, message, sig)).toBe(true);
      }
      // Used between every import, the hot key was never evicted.
      expect(hot.slot()).toBe(hotSlot);
    } finally {
      hot.drop();
      for (const k of cold) k.drop();
    }
  });
});
