// Plain digests through the Wasm core, for code outside the verify path that needs
// one (the guard's KV keys and policy id): callers never reach into the core.

import type { HashName } from './algorithms.js';
import { getCore } from './wasm/instance.js';

/**
 * The `hash` digest of `data` (a string is hashed as its UTF-8 bytes).
 *
 * @example
 * digest('SHA-256', 'abc'); // Uint8Array(32) [0xba, 0x78, ...]
 */
export function digest(hash: HashName, data: string | Uint8Array): Uint8Array {
  return getCore().hash(hash, data);
}
