// Key handles for the Wasm core, with the JWT rules applied at import:
// RFC 7518 §3.2 minimum HMAC key sizes, and slot reuse when keys are dropped
// (explicitly, or by the garbage collector as a safety net). HMAC slots grow on
// demand; Ed25519 slots are a bounded cache of per-key tables (see `resident`).

import { JwtError } from '../errors.js';
import { getCore } from './instance.js';
import type { Bytes, HashName } from './core.js';

export type HmacAlg = 'HS256' | 'HS384' | 'HS512';

const HMAC_HASH: Record<HmacAlg, { hash: HashName; minKey: number; tag: number }> = {
  HS256: { hash: 'SHA-256', minKey: 32, tag: 32 },
  HS384: { hash: 'SHA-384', minKey: 48, tag: 48 },
  HS512: { hash: 'SHA-512', minKey: 64, tag: 64 },
};

type KeyKind = 'hmac' | 'ed25519';

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

export function importHmacKey(secret: Uint8Array, alg: HmacAlg): WasmKey {
  const spec = HMAC_HASH[alg];
  if (spec === undefined) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC algorithm' });
  if (!(secret instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'HMAC secret must be bytes' });
  if (secret.length < spec.minKey) {
    throw new JwtError('ERR_KEY_TOO_SHORT', { reason: `${alg} needs at least ${spec.minKey} bytes` });
  }
  return new WasmKey('hmac', alg, spec.tag, (ref) => {
    ref.slot = getCore().hmacImport(spec.hash, secret);
  });
}

/** Full-length, constant-time tag check. A wrong-length signature is `false`. */
export function verifyHmac(key: WasmKey, signingInput: Bytes, signature: Uint8Array): boolean {
  if (key.kind !== 'hmac') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC key' });
  if (signature.length !== key.signatureLength) return false;
  return getCore().hmacVerify(key.slot(), signingInput, signature);
}

/** verifyHmac for a token that getCore().decodeJws decoded in place (signature of `sigLength` bytes). */
export function verifyHmacDecoded(key: WasmKey, token: string, h: number, p: number, sigLength: number): boolean {
  if (key.kind !== 'hmac') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC key' });
  if (sigLength !== key.signatureLength) return false;
  // slot() may import again, over INPUT: the core then decodes the token anew.
  return getCore().hmacVerifyDecoded(key.slot(), token, h, p, sigLength);
}

export function importEd25519Key(publicKey: Uint8Array): WasmKey {
  if (!(publicKey instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'public key must be bytes' });
  const copy = publicKey.slice();
  return new WasmKey('ed25519', 'EdDSA', 64, (ref) => loadEd25519(copy, ref), copy);
}

export function verifyEd25519(key: WasmKey, message: Bytes, signature: Uint8Array): boolean {
  if (key.kind !== 'ed25519') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an Ed25519 key' });
  if (signature.length !== 64) return false;
  return getCore().ed25519Verify(key.slot(), message, signature);
}

/** verifyEd25519 for a token that getCore().decodeJws decoded in place. */
export function verifyEd25519Decoded(key: WasmKey, token: string, h: number, p: number, sigLength: number): boolean {
  if (key.kind !== 'ed25519') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an Ed25519 key' });
  if (sigLength !== 64) return false;
  return getCore().ed25519VerifyDecoded(key.slot(), token, h, p, sigLength);
}

export function dropKey(key: WasmKey): void {
  key.drop();
}
