// wasm_key_slots_never_shared: the split key slots (src/wasm/key-slot.ts, hmac-key.ts,
// ed25519-key.ts; hmac-trim 3c8e5a9) under any interleaving of imports (HS256/384/512,
// deferred or not, Ed25519 beyond the slot count so keys are evicted and imported
// again), drops and verifies: every live key accepts its own MAC or signature and
// refuses the one another key made over the same message, and a dropped key refuses
// to verify at all. Two keys holding one slot (a slot given back twice, or a freed slot
// still used) would make one key verify with another's secret.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { getCore } from '../../src/wasm/instance.js';
import { deferredHmacKey, importHmacKey, type HmacAlg } from '../../src/wasm/hmac-key.js';
import { importEd25519Key } from '../../src/wasm/ed25519-key.js';
import type { WasmKey } from '../../src/wasm/key-slot.js';
import { verifyWasmKey } from './signature-hooks.js';
import { seededBytes } from './bytes.js';

const HASH = { HS256: sha256, HS384: sha384, HS512: sha512 } as const;
const MESSAGE = seededBytes(4242, 200);

type Kind = HmacAlg | 'deferred-HS256' | 'deferred-HS512' | 'EdDSA';
interface Live {
  key: WasmKey;
  kind: Kind;
  /** What this key must accept over MESSAGE. */
  good: Uint8Array;
  dropped: boolean;
}

/** Ed25519 key material by seed, made once (noble's key generation is the slow part). */
const edMaterial = new Map<number, { pub: Uint8Array; sig: Uint8Array }>();
function edPair(seed: number): { pub: Uint8Array; sig: Uint8Array } {
  let m = edMaterial.get(seed);
  if (m === undefined) {
    const secret = seededBytes(seed, 32);
    m = { pub: ed25519.getPublicKey(secret), sig: ed25519.sign(MESSAGE, secret) };
    edMaterial.set(seed, m);
  }
  return m;
}

function make(kind: Kind, seed: number): Live {
  if (kind === 'EdDSA') {
    const { pub, sig } = edPair(seed);
    return { key: importEd25519Key(pub), kind, good: sig, dropped: false };
  }
  const alg = (kind.startsWith('deferred-') ? kind.slice(9) : kind) as HmacAlg;
  const secret = seededBytes(seed, 64);
  const key = kind.startsWith('deferred-') ? deferredHmacKey(secret.slice(), alg) : importHmacKey(secret, alg);
  return { key, kind, good: hmac(HASH[alg], secret, MESSAGE), dropped: false };
}

const sameScheme = (a: Live, b: Live): boolean =>
  (a.kind === 'EdDSA') === (b.kind === 'EdDSA') && a.good.length === b.good.length;
/** Two keys made from the same material (the Ed25519 seed pool repeats). */
const same = (a: Live, b: Live): boolean => a.good.length === b.good.length && a.good.every((x, i) => x === b.good[i]);

type Op = { op: 'add'; kind: Kind } | { op: 'drop'; at: number } | { op: 'verify'; at: number; other: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<Kind>('HS256', 'HS384', 'HS512', 'deferred-HS256', 'deferred-HS512')
      .map((kind) => ({ op: 'add' as const, kind })),
  },
  { weight: 3, arbitrary: fc.constant({ op: 'add' as const, kind: 'EdDSA' as Kind }) },
  { weight: 2, arbitrary: fc.nat().map((at) => ({ op: 'drop' as const, at })) },
  { weight: 5, arbitrary: fc.tuple(fc.nat(), fc.nat()).map(([at, other]) => ({ op: 'verify' as const, at, other })) },
);

describe('wasm_key_slots_never_shared', () => {
  it(
    'any interleaving of imports, drops and verifies: each ' + 'live key verifies with its own secret only (property)',
    () => {
      // All but a few Ed25519 slots taken by live keys first, so the ops' Ed25519 imports evict.
      const fillers = getCore().exports.ed25519_slots.value - 1;
      let seed = 90_000;
      fc.assert(
        fc.property(fc.array(op, { minLength: 10, maxLength: 60 }), (ops) => {
          const keys: Live[] = [];
          try {
            for (let i = 0; i < fillers; i++) keys.push(make('EdDSA', 80_000 + i));
            for (const o of ops) {
              // Ed25519 seeds from a small pool (material made once); a repeated public key is a key of its own.
              if (o.op === 'add') keys.push(make(o.kind, o.kind === 'EdDSA' ? 85_000 + (seed++ % 40) : seed++));
              else if (keys.length === 0) continue;
              else if (o.op === 'drop') {
                const k = keys[o.at % keys.length]!;
                k.key.drop();
                k.dropped = true;
              } else {
                const k = keys[o.at % keys.length]!;
                const other = keys[o.other % keys.length]!;
                if (k.dropped) {
                  expect(() => verifyWasmKey(k.key, MESSAGE, k.good)).toThrow(/dropped/);
                  continue;
                }
                expect(verifyWasmKey(k.key, MESSAGE, k.good), `${k.kind} own`).toBe(true);
                if (other !== k && sameScheme(k, other) && !same(k, other))
                  expect(verifyWasmKey(k.key, MESSAGE, other.good), `${k.kind} vs ${other.kind}`).toBe(false);
              }
            }
            // At the end every live key, evicted or not, still verifies its own and not the next one's.
            for (const [i, k] of keys.entries()) {
              if (k.dropped) continue;
              expect(verifyWasmKey(k.key, MESSAGE, k.good)).toBe(true);
              const next = keys.slice(i + 1).find((o) => sameScheme(k, o) && !same(k, o));
              if (next !== undefined) expect(verifyWasmKey(k.key, MESSAGE, next.good)).toBe(false);
            }
          } finally {
            for (const k of keys) k.key.drop();
          }
        }),
        { numRuns: 40 },
      );
    },
  );
});
