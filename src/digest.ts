// Plain digests through the Wasm core, for code outside the verify path that needs
// one (the guard's KV keys and policy id, JWK thumbprints, DPoP's ath and replay
// keys): callers never reach into the core. Some of these hash what a request sent
// (a DPoP access token, a key's members), so any length is hashed: input longer
// than the core's buffer goes through its streaming context in buffer-sized parts
// instead of failing as a core fault (which callers answer as the server's, 500).

import type { HashName } from './algorithms.js';
import { INPUT_CAP } from './wasm/abi.js';
import { getCore } from './wasm/instance.js';
import { coreHash, coreHashParts } from './wasm/core-hash.js';

const encoder = new TextEncoder();

/**
 * The `hash` digest of `data` (a string is hashed as its UTF-8 bytes), of any length.
 *
 * @example
 * digest('SHA-256', 'abc'); // Uint8Array(32) [0xba, 0x78, ...]
 */
export function digest(hash: HashName, data: string | Uint8Array): Uint8Array {
  // A string of n UTF-16 units is at most 3n UTF-8 bytes: the common short input goes straight in.
  if ((typeof data === 'string' ? data.length * 3 : data.length) <= INPUT_CAP) return coreHash(getCore(), hash, data);
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  if (bytes.length <= INPUT_CAP) return coreHash(getCore(), hash, bytes);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += INPUT_CAP) parts.push(bytes.subarray(at, at + INPUT_CAP));
  return coreHashParts(getCore(), hash, parts);
}
