// HMAC keys in Wasm key slots, with the JWT rules applied at import: RFC 7518 §3.2
// minimum key sizes, and a secret that fits the core's INPUT region. HMAC slots grow on
// demand, so an import never waits for a slot.

import { JwtError } from '../errors.js';
import { getCore } from './instance.js';
import { WasmKey, type SlotRef } from './key-slot.js';
import { hmacSpec, type HashName } from '../alg-base.js';

export type HmacAlg = 'HS256' | 'HS384' | 'HS512';

function releaseHmac(slot: number): void {
  getCore().hmacDrop(slot);
}

/** An HMAC key: its secret is held until it is in its slot (at once, or at its first verify when deferred). */
class HmacKey extends WasmKey {
  readonly kind = 'hmac' as const;
  #hash: HashName;
  #secret: Uint8Array | undefined;

  constructor(alg: HmacAlg, hash: HashName, signatureLength: number, secret: Uint8Array) {
    super(alg, signatureLength, releaseHmac);
    this.#hash = hash;
    this.#secret = secret;
  }

  protected claim(ref: SlotRef): number {
    const secret = this.#secret;
    if (secret !== undefined) {
      ref.slot = getCore().hmacImport(this.#hash, secret);
      this.#secret = undefined;
    }
    return ref.slot;
  }

  override drop(): void {
    this.#secret = undefined;
    super.drop();
  }
}

// The core's INPUT region (assembly/regions.ts INPUT_CAP): the longest secret it can
// import. Checked here too, so a deferred key refuses a too-long secret when it is made.
const MAX_SECRET_BYTES = 65536;

function checkedHmac(secret: Uint8Array, alg: HmacAlg): HmacKey {
  const spec = hmacSpec(alg);
  if (spec === undefined) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'not an HMAC algorithm' });
  if (!(secret instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'HMAC secret must be bytes' });
  if (secret.length < spec.minKeyBytes) {
    throw new JwtError('ERR_KEY_TOO_SHORT', { reason: `${alg} needs at least ${spec.minKeyBytes} bytes` });
  }
  if (secret.length > MAX_SECRET_BYTES) throw new JwtError('ERR_KEY_INVALID', { reason: 'key too long' });
  return new HmacKey(alg, spec.hash, spec.sigLength, secret);
}

/**
 * An HMAC key for `alg` (HS256/384/512), at least as long as its hash output, imported into its slot now.
 * @example
 * const key = importHmacKey(new TextEncoder().encode(secret), 'HS256');
 */
export function importHmacKey(secret: Uint8Array, alg: HmacAlg): WasmKey {
  const key = checkedHmac(secret, alg);
  key.slot();
  return key;
}

/**
 * The same key with every check made now but the import (pads computed in the core,
 * INPUT wiped) deferred to its first verify: a verifier with several issuers does
 * not pay for an HMAC issuer on a request for another one. `secret` must not change
 * afterwards (callers pass their own copy).
 * @example
 * const key = deferredHmacKey(secretCopy, 'HS256'); // no slot taken until key.slot()
 */
export function deferredHmacKey(secret: Uint8Array, alg: HmacAlg): WasmKey {
  return checkedHmac(secret, alg);
}
