// Key handles for the Wasm core, with the JWT rules applied at import:
// RFC 7518 §3.2 minimum HMAC key sizes, and slot reuse when keys are dropped
// (explicitly, or by the garbage collector as a safety net).

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

interface SlotRef {
  kind: KeyKind;
  slot: number;
}

const released = new FinalizationRegistry<SlotRef>((ref) => freeSlot(ref));

function freeSlot(ref: SlotRef): void {
  if (ref.kind === 'hmac') getCore().hmacDrop(ref.slot);
  else getCore().ed25519Drop(ref.slot);
}

/** A key living in a Wasm key slot. Opaque to callers; `drop()` frees the slot at once. */
export class WasmKey {
  readonly kind: KeyKind;
  readonly alg: HmacAlg | 'EdDSA';
  /** Full tag length for HMAC keys, 64 for Ed25519. */
  readonly signatureLength: number;
  #ref: SlotRef | undefined;

  constructor(kind: KeyKind, alg: HmacAlg | 'EdDSA', slot: number, signatureLength: number) {
    this.kind = kind;
    this.alg = alg;
    this.signatureLength = signatureLength;
    this.#ref = { kind, slot };
    released.register(this, this.#ref, this);
  }

  get dropped(): boolean {
    return this.#ref === undefined;
  }

  /** @internal the slot, or a JwtError if the key was dropped. */
  slot(): number {
    if (this.#ref === undefined) throw new JwtError('ERR_KEY_INVALID', { reason: 'key was dropped' });
    return this.#ref.slot;
  }

  drop(): void {
    if (this.#ref === undefined) return;
    released.unregister(this);
    freeSlot(this.#ref);
    this.#ref = undefined;
  }
}

export function importHmacKey(secret: Uint8Array, alg: HmacAlg): WasmKey {
  const spec = HMAC_HASH[alg];
  if (spec === undefined) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC algorithm' });
  if (!(secret instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'HMAC secret must be bytes' });
  if (secret.length < spec.minKey) {
    throw new JwtError('ERR_KEY_TOO_SHORT', { reason: `${alg} needs at least ${spec.minKey} bytes` });
  }
  return new WasmKey('hmac', alg, getCore().hmacImport(spec.hash, secret), spec.tag);
}

/** Full-length, constant-time tag check. A wrong-length signature is `false`. */
export function verifyHmac(key: WasmKey, signingInput: Bytes, signature: Uint8Array): boolean {
  if (key.kind !== 'hmac') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC key' });
  if (signature.length !== key.signatureLength) return false;
  return getCore().hmacVerify(key.slot(), signingInput, signature);
}

export function importEd25519Key(publicKey: Uint8Array): WasmKey {
  if (!(publicKey instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'public key must be bytes' });
  return new WasmKey('ed25519', 'EdDSA', getCore().ed25519Import(publicKey), 64);
}

export function verifyEd25519(key: WasmKey, message: Bytes, signature: Uint8Array): boolean {
  if (key.kind !== 'ed25519') throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an Ed25519 key' });
  if (signature.length !== 64) return false;
  return getCore().ed25519Verify(key.slot(), message, signature);
}

export function dropKey(key: WasmKey): void {
  key.drop();
}
