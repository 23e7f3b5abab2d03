// The signature step alone, outside a token, for tests: the same handles and length
// rules as a token verify (src/signature.ts), fed arbitrary bytes. The Wycheproof
// primitive files need it: their messages cannot be a JWS signing input.
import { algSpec } from '../../src/algorithms.js';
import { JwtError } from '../../src/errors.js';
import type { KeyEntry } from '../../src/keys/entry.js';
import { WasmHandle } from '../../src/signature.js';
import type { Bytes } from '../../src/wasm/core.js';
import type { WasmKey } from '../../src/wasm/keys.js';

/** A KeyEntry's verdict for `alg` on a message and signature (a backend rejection is `false`). */
export async function verifySignatureBytes(
  key: KeyEntry,
  alg: string,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const spec = algSpec(alg);
  if (spec === undefined || !key.fits(spec)) throw new JwtError('ERR_KEY_ALG_MISMATCH');
  if (spec.sigLength !== 0 && signature.length !== spec.sigLength) return false;
  return (await key.handle(spec)).verify({ message, signature });
}

/** A Wasm key's verdict on a message and signature: full-length tags only, as in a token verify. */
export function verifyWasmKey(key: WasmKey, message: Bytes, signature: Uint8Array): boolean {
  return new WasmHandle(key).verify({ message, signature });
}
