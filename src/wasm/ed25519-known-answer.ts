// The Wasm core's Ed25519 verify checked against a known answer before an isolate's
// first Ed25519 key is imported: the guard's self-test (src/worker/self-test.ts) runs
// HMAC only, and EdDSA tokens and DPoP proofs reach this code in every entry, so a
// miscompiled core must fail closed here (ERR_WASM_CORE, for good) rather than accept
// a signature it should refuse. Paid once, at the first EdDSA verify, which compiles
// the same Wasm functions anyway.

import { JwtError } from '../errors.js';
import { ed25519Drop, ed25519Import, type Core } from './core.js';

// RFC 8032 section 7.1, TEST 2 (a one-byte message), also test/vectors/rfc/ed25519_rfc8032.json.
const PUBLIC_KEY = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c';
const SIGNATURE = '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00';
const MESSAGE = 0x72;

let answered = false;
let wrongAnswer: JwtError | undefined;

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Whether the core accepts the vector's signature and refuses it with a bit flipped or on another message. */
function answersRight(core: Core): boolean {
  let slot: number;
  try {
    slot = ed25519Import(core, hexBytes(PUBLIC_KEY));
  } catch {
    return false;
  }
  try {
    const signature = hexBytes(SIGNATURE);
    const good = core.verify('ed25519', slot, { message: Uint8Array.of(MESSAGE), signature });
    const otherMessage = core.verify('ed25519', slot, { message: Uint8Array.of(MESSAGE ^ 1), signature });
    signature[0]! ^= 1;
    const flipped = core.verify('ed25519', slot, { message: Uint8Array.of(MESSAGE), signature });
    return good && !otherMessage && !flipped;
  } finally {
    ed25519Drop(core, slot);
  }
}

/**
 * Throws ERR_WASM_CORE (now and at every later call) unless the core verifies the RFC 8032
 * vector as it must; runs the check once per isolate.
 *
 * @example
 * checkEd25519KnownAnswer(getCore()); // before the first ed25519Import
 */
export function checkEd25519KnownAnswer(core: Core): void {
  if (answered) return;
  if (wrongAnswer !== undefined) throw wrongAnswer;
  if (!answersRight(core)) throw (wrongAnswer = new JwtError('ERR_WASM_CORE', { reason: 'Ed25519 known answer' }));
  answered = true;
}
