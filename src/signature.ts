// The signature step: a key handle, made once per key and algorithm, with one
// verify() for a decoded token or for a message and signature as bytes. Wasm
// handles read the token where the core decoded it; backend handles (RS/PS/ES,
// HMAC CryptoKeys) get views of the same regions. Nothing else switches on where a
// key lives. A verdict is a boolean, or a promise of one that never rejects: a
// backend refusing a hostile signature has said "invalid", not failed.
// (docs/architecture.md, "The verify path".)

import { backend } from '#crypto-backend';
import type { AlgSpec } from './algorithms.js';
import type { BackendKey } from './backend/types.js';
import { DecodedJws, signingViews, type Signed } from './wasm/core.js';
import { getCore } from './wasm/instance.js';
import type { WasmKey } from './wasm/key-slot.js';

export type { Signed, SignedBytes } from './wasm/core.js';

/** A key ready to check signatures of one algorithm. */
export interface Handle {
  /** The one valid signature length in bytes (RSA: the modulus length). */
  readonly sigLength: number;
  /** True for a valid signature; a promise only where the backend is asynchronous (WebCrypto). */
  verify(signed: Signed): boolean | Promise<boolean>;
}

function signatureLength(signed: Signed): number {
  return signed instanceof DecodedJws ? signed.signatureLength : signed.signature.length;
}

/** A key living in a Wasm key slot (HS*, EdDSA). */
export class WasmHandle implements Handle {
  readonly sigLength: number;

  constructor(readonly key: WasmKey) {
    this.sigLength = key.signatureLength;
  }

  verify(signed: Signed): boolean {
    if (signatureLength(signed) !== this.sigLength) return false;
    // slot() may import the key again (over INPUT): the core then decodes the token anew.
    return getCore().verify(this.key.kind, this.key.slot(), signed);
  }
}

const invalid = (): boolean => false;

/** A key in the crypto backend's native form (RS*, PS*, ES*, HMAC CryptoKeys). */
export class BackendHandle implements Handle {
  constructor(
    readonly spec: AlgSpec,
    readonly key: BackendKey,
    readonly sigLength: number,
  ) {}

  verify(signed: Signed): boolean | Promise<boolean> {
    let message: string | Uint8Array;
    let signature: Uint8Array;
    if (signed instanceof DecodedJws) {
      if (signed.signatureLength !== this.sigLength) return false;
      if (signed.held !== undefined) {
        // Decoded in JS (src/jws-bytes.ts): the core was never asked.
        message = signed.token.slice(0, signed.payloadEnd);
        signature = signed.held.signature;
      } else {
        const views = signingViews(getCore(), signed);
        if (views === undefined) return false;
        [message, signature] = views;
      }
    } else {
      ({ message, signature } = signed);
      if (signature.length !== this.sigLength) return false;
    }
    // A backend that throws on a hostile signature has rejected it: that is a failed
    // verification, never an exception that escapes as something else.
    let v: boolean | Promise<boolean>;
    try {
      v = backend.verify(this.spec, this.key, message, signature);
    } catch {
      return false;
    }
    return v instanceof Promise ? v.then(undefined, invalid) : v;
  }
}
