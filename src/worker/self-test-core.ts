// The known answers the self-test gate (self-test-gate.ts) runs before a core family's
// first verify, at the Wasm core's own interface (src/wasm/core.ts): the core decodes the
// known token in place (its base64url and UTF-8 code), imports the key, verifies the token
// and refuses a copy with one signature character changed. Only the core: the JavaScript
// around it is not what a miscompiled build breaks, and the request's own verify runs it a
// moment later. Every call here is one the first verify makes anyway, so once those are
// compiled the test costs a few microseconds (bench/guard/cold-notes.md).

import { decodeSegment } from '../b64.js';
import { ed25519Drop, ed25519Import, type Core, type DecodedJws, type WasmScheme } from '../wasm/core.js';
import { getCore } from '../wasm/instance.js';
import type { HashName } from '../algorithms.js';
import { SELF_TEST, SELF_TEST_ED25519, SELF_TEST_HMAC_SHA2, SELF_TEST_PAYLOAD, SelfTestFailure } from './self-test.js';

/**
 * The HS family's known answer: HMAC-SHA-256 (the core's SHA-256 and HMAC) on the HS256 vector.
 *
 * @example
 * await hmacKnownAnswer(); // rejects with SelfTestFailure on a broken core
 */
export async function hmacKnownAnswer(): Promise<void> {
  hmacCheck('SHA-256', SELF_TEST.token, 'HS256');
}

/**
 * The HS384 or HS512 family's known answer: HMAC over that hash (the core's SHA-512
 * compression, with the hash's own initial values and length), on its vector.
 *
 * @example
 * await hmacSha2KnownAnswer('HS512'); // rejects with SelfTestFailure on a broken core
 */
export async function hmacSha2KnownAnswer(alg: 'HS384' | 'HS512'): Promise<void> {
  hmacCheck(alg === 'HS384' ? 'SHA-384' : 'SHA-512', SELF_TEST_HMAC_SHA2[alg], alg);
}

function hmacCheck(hash: HashName, token: string, alg: string): void {
  const core = getCore();
  const slot = core.hmacImport(hash, SELF_TEST.key);
  try {
    check(core, 'hmac', slot, token, alg);
  } finally {
    core.hmacDrop(slot);
  }
}

/**
 * The EdDSA family's known answer: Ed25519 (the core's SHA-512 and curve code) on the Ed25519 vector.
 *
 * @example
 * await ed25519KnownAnswer(); // rejects with SelfTestFailure on a broken core
 */
export async function ed25519KnownAnswer(): Promise<void> {
  const core = getCore();
  const slot = ed25519Import(core, decodeSegment(SELF_TEST_ED25519.x, 0, SELF_TEST_ED25519.x.length)!);
  try {
    check(core, 'ed25519', slot, SELF_TEST_ED25519.token, 'EdDSA');
  } finally {
    ed25519Drop(core, slot);
  }
}

function check(core: Core, scheme: WasmScheme, slot: number, token: string, alg: string): void {
  const jws = decoded(core, token);
  if (jws.payload !== SELF_TEST_PAYLOAD || !core.verify(scheme, slot, jws)) throw new SelfTestFailure(alg);
  // A verify that accepts everything passes the above: one changed signature character must be refused.
  const tampered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)!;
  if (core.verify(scheme, slot, decoded(core, tampered))) throw new SelfTestFailure(`${alg}, tampered`);
}

function decoded(core: Core, token: string): DecodedJws {
  const headerEnd = token.indexOf('.');
  return core.decodeJws(token, headerEnd, token.indexOf('.', headerEnd + 1));
}
