// Hashes and a bare HMAC through the core (digest, JWE's KDF and CBC tags): functions
// over Core rather than its methods, so a bundle that only verifies leaves them out.

import type { HashName } from '../algorithms.js';
import { JwtError } from '../errors.js';
import { HASH_IDS, VALID } from './abi.js';
import type { Bytes, Core } from './core.js';

const TOO_LARGE = 'input larger than the core buffer';

/** A copy of the `len` bytes the core wrote to OUT (a status <= 0 is ERR_WASM_CORE). */
function readOut(core: Core, len: number): Uint8Array {
  if (len <= 0) throw new JwtError('ERR_WASM_CORE', { reason: `status ${len}` });
  return core.memoryView.slice(core.outPtr, core.outPtr + len);
}

/**
 * The `name` digest of `data` (UTF-8 for a string), computed by the core.
 * @example
 * const d = coreHash(getCore(), 'SHA-256', 'abc');
 */
export function coreHash(core: Core, name: HashName, data: Bytes): Uint8Array {
  const len = core.writeInput(data);
  if (len < 0) throw new JwtError('ERR_WASM_CORE', { reason: TOO_LARGE });
  return readOut(core, core.exports.hash(HASH_IDS[name], len));
}

/**
 * Digest of `parts` fed one after another through the streaming context (tests split inputs with it).
 * @example
 * const d = coreHashParts(getCore(), 'SHA-256', [a, b]);
 */
export function coreHashParts(core: Core, name: HashName, parts: Uint8Array[]): Uint8Array {
  core.exports.hash_init(HASH_IDS[name]);
  for (const part of parts) {
    const len = core.writeInput(part);
    if (len < 0 || core.exports.hash_update(len) !== VALID) {
      core.exports.hash_final();
      throw new JwtError('ERR_WASM_CORE', { reason: TOO_LARGE });
    }
  }
  return readOut(core, core.exports.hash_final());
}

/**
 * The full HMAC of `data` under the key in `slot` (callers cut the tag they need).
 * @example
 * const tag = coreHmac(getCore(), key.slot(), bytes);
 */
export function coreHmac(core: Core, slot: number, data: Bytes): Uint8Array {
  const len = core.writeInput(data);
  if (len < 0) throw new JwtError('ERR_WASM_CORE', { reason: TOO_LARGE });
  return readOut(core, core.exports.hmac_compute(slot, len));
}
