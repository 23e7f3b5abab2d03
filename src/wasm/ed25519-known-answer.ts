// The Wasm core's Ed25519 verify checked against a known answer before an isolate's
// first Ed25519 key is imported: the guard's self-test (src/worker/self-test.ts) runs
// HMAC only, and EdDSA tokens and DPoP proofs reach this code in every entry, so a
// miscompiled core must fail closed here (ERR_WASM_CORE, for good) rather than accept
// a signature it should refuse. Paid once, at the first EdDSA verify, which compiles
// the same Wasm functions anyway.

import { decodeSegment } from '../b64.js';
import { JwtError } from '../errors.js';
import { ed25519Drop, ed25519Import, type Core } from './core.js';

// RFC 8032 section 7.1, TEST 2 (a one-byte message), also test/vectors/rfc/ed25519_rfc8032.json;
// base64url, as every key and signature the library reads.
const PUBLIC_KEY = 'PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw';
const SIGNATURE = 'kqAJqfDUyrhyDoILX2QlQKKye1QWUD-Ps3YiI-vbadoIWsHkPhWZbkWPNhPQ8R2MOHsurrQwKu6wDSkWErsMAA';
const MESSAGE = 0x72;

let answered = false;
let wrongAnswer: JwtError | undefined;

const bytesOf = (text: string): Uint8Array => decodeSegment(text, 0, text.length)!;

/** Whether the core accepts the vector's signature and refuses it with a bit flipped or on another message. */
function answersRight(core: Core): boolean {
  let slot: number;
  try {
    slot = ed25519Import(core, bytesOf(PUBLIC_KEY));
  } catch {
    return false;
  }
  try {
    const signature = bytesOf(SIGNATURE);
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
