// Key handles for the Wasm core, with the JWT rules applied at import:
// RFC 7518 §3.2 minimum HMAC key sizes, and slot reuse when keys are dropped
// (explicitly, or by the garbage collector as a safety net). HMAC slots grow on
// demand; Ed25519 slots are a bounded cache of per-key tables (see `resident`).

import { algSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { WasmScheme } from './core.js';
import { getCore } from './instance.js';

export type HmacAlg = 'HS256' | 'HS384' | 'HS512';

type KeyKind = WasmScheme;

/** Which slot a key holds; `slot` is -1 once the slot was given up (dropped or evicted). */
interface SlotRef {
  kind: KeyKind;
  slot: number;
}

// Workers before the `enable_weak_ref` compatibility flag (2025) have no FinalizationRegistry:
// there, slots come back only through drop() (HMAC slots still grow, Ed25519 slots are an LRU).
const released: FinalizationRegistry<SlotRef> | undefined =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<SlotRef>((ref) => {
        if (ref.kind === 'ed25519') resident.delete(ref.slot);
        freeSlot(ref);
      })
    : undefined;

function freeSlot(ref: SlotRef): void {
  if (ref.slot < 0) return;
  if (ref.kind === 'hmac') getCore().hmacDrop(ref.slot);
  else getCore().ed25519Drop(ref.slot);
  ref.slot = -1;
}

// Ed25519 slots carry a precomputed table once their key is hot (about 160 KiB
// each, built at the 21st verify), so there are few of them and they act as a cache: a key keeps its public bytes, and when every
// slot is taken the least recently used key gives its slot up and imports again
// at its next verify. Imports therefore never fail for want of a slot, even when
// dead keys still await the garbage collector. Map order is recency order.
const resident = new Map<number, SlotRef>();

function evictLeastRecent(): boolean {
  const first = resident.entries().next();
  if (first.done) return false;
  const [slot, ref] = first.value;
  resident.delete(slot);
  freeSlot(ref);
  return true;
}

function loadEd25519(publicKey: Uint8Array, ref: SlotRef): void {
  const core = getCore();
  if (!core.hasFreeEd25519Slot()) evictLeastRecent();
  ref.slot = core.ed25519Import(publicKey);
  resident.set(ref.slot, ref);
}

/** A key living in a Wasm key slot. Opaque to callers; `drop()` frees the slot at once. */
export class WasmKey {
  readonly kind: KeyKind;
  readonly alg: HmacAlg | 'EdDSA';
  /** Full tag length for HMAC keys, 64 for Ed25519. */
  readonly signatureLength: number;
  readonly #ref: SlotRef;
  /** Ed25519 only: kept to import again after the slot was evicted. */
  readonly #publicKey: Uint8Array | undefined;
  #dropped = false;

  /** @internal use importHmacKey / importEd25519Key. */
  constructor(kind: KeyKind, alg: HmacAlg | 'EdDSA', signatureLength: number, load: (ref: SlotRef) => void, publicKey?: Uint8Array) {
    this.kind = kind;
    this.alg = alg;
    this.signatureLength = signatureLength;
    this.#publicKey = publicKey;
    this.#ref = { kind, slot: -1 };
    load(this.#ref);
    released?.register(this, this.#ref, this);
  }

  get dropped(): boolean {
    return this.#dropped;
  }

  /** @internal the slot (importing again if it was evicted), or a JwtError if the key was dropped. */
  slot(): number {
    if (this.#dropped) throw new JwtError('ERR_KEY_INVALID', { reason: 'key was dropped' });
    const ref = this.#ref;
    if (ref.kind === 'ed25519') {
      if (ref.slot < 0) {
        loadEd25519(this.#publicKey!, ref);
      } else {
        resident.delete(ref.slot);
        resident.set(ref.slot, ref);
      }
    }
    return ref.slot;
  }

  drop(): void {
    if (this.#dropped) return;
    this.#dropped = true;
    released?.unregister(this);
    if (this.#ref.kind === 'ed25519') resident.delete(this.#ref.slot);
    freeSlot(this.#ref);
  }
}

/** An HMAC key for `alg` (HS256/384/512), at least as long as its hash output. */
export function importHmacKey(secret: Uint8Array, alg: HmacAlg): WasmKey {
  const spec = algSpec(alg);
  if (spec === undefined || spec.engine !== 'hmac') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC algorithm' });
  if (!(secret instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'HMAC secret must be bytes' });
  if (secret.length < spec.minKeyBytes) {
    throw new JwtError('ERR_KEY_TOO_SHORT', { reason: `${alg} needs at least ${spec.minKeyBytes} bytes` });
  }
  return new WasmKey('hmac', alg, spec.sigLength, (ref) => {
    ref.slot = getCore().hmacImport(spec.hash, secret);
  });
}

export function importEd25519Key(publicKey: Uint8Array): WasmKey {
  if (!(publicKey instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'public key must be bytes' });
  const copy = publicKey.slice();
  return new WasmKey('ed25519', 'EdDSA', 64, (ref) => loadEd25519(copy, ref), copy);
}
