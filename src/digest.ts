// Plain digests through the Wasm core, for code outside the verify path that needs
// one (the guard's KV keys and policy id, JWK thumbprints, DPoP's ath and replay
// keys): callers never reach into the core. Some of these hash what a request sent
// (a DPoP access token, a key's members), so any length is hashed: input longer
// than the core's buffer goes through its streaming context in buffer-sized parts
// instead of failing as a core fault (which callers answer as the server's, 500).
// Each hash's first use checks the core against a known answer (FIPS 180-4's two-block
// examples): these digests name KV entries and bind proofs before any verify runs, and
// the guard's self-test (src/worker/self-test.ts) runs only for configs with HS*/EdDSA
// issuers, so a miscompiled core must fail closed here (ERR_WASM_CORE, for good) rather
// than make two inputs one key.

import type { HashName } from './algorithms.js';
import { JwtError } from './errors.js';
import { INPUT_CAP } from './wasm/abi.js';
import { getCore } from './wasm/instance.js';
import { coreHash, coreHashParts } from './wasm/core-hash.js';

const encoder = new TextEncoder();

const TWO_BLOCKS_256 = 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq';
const TWO_BLOCKS_512 =
  'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu';
/** Each hash's known answer: the input and its digest (hex). */
const KNOWN: Record<HashName, readonly [string, string]> = {
  'SHA-256': [TWO_BLOCKS_256, '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  'SHA-384': [
    TWO_BLOCKS_512,
    '09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039',
  ],
  'SHA-512': [
    TWO_BLOCKS_512,
    '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018' +
      '501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909',
  ],
};
const answered = new Set<HashName>();
let wrongAnswer: JwtError | undefined;

/** Throws ERR_WASM_CORE (now and at every later digest) unless the core gives `hash`'s known answer. */
function checkKnownAnswer(hash: HashName): void {
  if (wrongAnswer !== undefined) throw wrongAnswer;
  if (answered.has(hash)) return;
  const [input, want] = KNOWN[hash];
  let got = '';
  for (const b of coreHash(getCore(), hash, input)) got += b.toString(16).padStart(2, '0');
  if (got !== want) throw (wrongAnswer = new JwtError('ERR_WASM_CORE', { reason: `${hash} known answer` }));
  answered.add(hash);
}

/**
 * The `hash` digest of `data` (a string is hashed as its UTF-8 bytes), of any length.
 *
 * @example
 * digest('SHA-256', 'abc'); // Uint8Array(32) [0xba, 0x78, ...]
 */
export function digest(hash: HashName, data: string | Uint8Array): Uint8Array {
  checkKnownAnswer(hash);
  // A string of n UTF-16 units is at most 3n UTF-8 bytes: the common short input goes straight in.
  if ((typeof data === 'string' ? data.length * 3 : data.length) <= INPUT_CAP) return coreHash(getCore(), hash, data);
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  if (bytes.length <= INPUT_CAP) return coreHash(getCore(), hash, bytes);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += INPUT_CAP) parts.push(bytes.subarray(at, at + INPUT_CAP));
  return coreHashParts(getCore(), hash, parts);
}
