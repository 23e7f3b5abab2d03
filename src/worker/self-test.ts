// A known-answer verify, run when the guard is warmed at module scope: an HS256 token
// through the library's own verify path (the Wasm core's SHA-256 and HMAC, the header,
// payload and claims code every algorithm shares), and a tampered copy that must fail.
// It proves the core answers as it should before the guard serves anything, and it
// compiles that shared path before the first request instead of during it. Only HS256:
// each further algorithm cost more in a fresh isolate than it saved (docs/speed.md).

import { hmacPolicy } from '../hmac/source.js';
import { buildTwoStepVerifier, type TwoStepVerifier, type VerifyResult } from '../verify-path.js';
import { ConfigError } from './config-error.js';

/**
 * The algorithms the self-test verifies: HS256 only. It does not cover EdDSA (the
 * Wasm core's Ed25519), nor RS*, PS* or ES* (WebCrypto), whatever the config uses.
 * The warm() docs name exactly these (test/node/self-test-vector.test.ts checks them).
 *
 * @example
 * SELF_TEST_ALGORITHMS; // ['HS256']
 */
export const SELF_TEST_ALGORITHMS = ['HS256'] as const;

/**
 * Whether a config with these algorithms runs on the Wasm core (HS*, EdDSA), which is what the
 * self-test checks: a config of RS*, PS* and ES* only never starts the core, so it has nothing to test.
 *
 * @example
 * usesWasmCore(['RS256', 'ES256']); // false
 */
export function usesWasmCore(algorithms: Iterable<string>): boolean {
  for (const a of algorithms) if (coreFamily(a) !== undefined) return true;
  return false;
}

/**
 * The Wasm core's family that verifies `alg` (HMAC, or Ed25519 under both its names), or
 * undefined for an algorithm the core does not verify (RS*, PS*, ES*: WebCrypto).
 * test/node/self-test-for.test.ts checks this against the algorithm table.
 *
 * @example
 * coreFamily('HS384'); // 'HS'
 * coreFamily('Ed25519'); // 'EdDSA'
 * coreFamily('RS256'); // undefined
 */
export function coreFamily(alg: string): 'HS' | 'EdDSA' | undefined {
  return alg.startsWith('HS') ? 'HS' : alg === 'EdDSA' || alg === 'Ed25519' ? 'EdDSA' : undefined;
}

/** The token's iss and aud, its key (bytes 0..31, public by design) and the token itself. */
export const SELF_TEST = {
  issuer: 'edgejwt:self-test',
  key: Uint8Array.from({ length: 32 }, (_, i) => i),
  token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
    'eyJpc3MiOiJlZGdland0OnNlbGYtdGVzdCIsImF1ZCI6ImVkZ2Vqd3Q6c2Vs' +
    'Zi10ZXN0Iiwic3ViIjoic2VsZi10ZXN0IiwiZXhwIjo0MTAyNDQ0ODAwfQ.' +
    'tANlDEY5YK016qx2Qjb9_uOFYf0f0MCdpTUeJpaSJzQ',
} as const;

/** The self-test failed: the Wasm core gives wrong answers; the guard must not serve. */
export class SelfTestFailure extends ConfigError {
  constructor(which: string) {
    super('self-test', `the known-answer verify failed (${which}): the Wasm core is broken`);
  }
}

/**
 * HS384 and HS512 run on the core's SHA-512 code (with their own initial values), which the
 * HS256 answer never reaches: a config that uses one gets its known answer too. The same
 * claims as SELF_TEST under a 64-byte key (bytes 0..63, public by design: the library
 * refuses an HS512 key shorter than its hash); only the signatures are kept (sha512Token).
 */
export const SELF_TEST_SHA512 = {
  key: Uint8Array.from({ length: 64 }, (_, i) => i),
  signatures: {
    HS384: 'SZk3M1frd4vysrSy9FiCl0T-JXlLAbcgJYAoJ69WNtH55ZybpACfDHgJIVPxcIRl',
    HS512: 'fZlGRoPuUd9Hp6TE77FyYsJd5OBqZIUm2ECGA08cPaOal0jMJVHNZkGE833JbwtuPaDNQjrvoLGmiHHeNzWDWg',
  },
} as const;

/**
 * The HS384 or HS512 known-answer token: its header, SELF_TEST's payload segment, the kept signature.
 *
 * @example
 * sha512Token('HS512'); // 'eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJpc3Mi…'
 */
export function sha512Token(alg: 'HS384' | 'HS512'): string {
  // 27 ASCII bytes: 36 base64 characters, none of them '+', '/' or '='.
  return `${btoa(`{"alg":"${alg}","typ":"JWT"}`)}.${SELF_TEST.token.split('.')[1]}.${SELF_TEST_SHA512.signatures[alg]}`;
}

/**
 * Verify the HS256 known answer, and the HS384 / HS512 one for each of them in `algorithms`
 * (the config's), each with a tampered copy refused; rejects with SelfTestFailure otherwise.
 *
 * @example
 * await selfTest(['HS512', 'RS256']); // HS256 and HS512
 */
export async function selfTest(algorithms: readonly string[] = []): Promise<void> {
  await knownAnswer('HS256', SELF_TEST.key, SELF_TEST.token);
  for (const alg of ['HS384', 'HS512'] as const)
    if (algorithms.includes(alg)) await knownAnswer(alg, SELF_TEST_SHA512.key, sha512Token(alg));
}

/**
 * The verify path every guard runs (the library's options -> policy -> two-step verifier, build.ts; an HMAC secret),
 * over the self-test's issuer (`edgejwt:self-test` as issuer and audience) and `key` for `alg` alone.
 *
 * @example
 * const v = selfTestVerifier('HS256', SELF_TEST.key);
 * v.verifyOpened(v.open(SELF_TEST.token));
 */
export function selfTestVerifier(alg: 'HS256' | 'HS384' | 'HS512', key: Uint8Array): TwoStepVerifier {
  const issuer = { issuer: SELF_TEST.issuer, audience: SELF_TEST.issuer, algorithms: [alg], key };
  return buildTwoStepVerifier({ issuers: [issuer], cache: false }, hmacPolicy);
}

async function knownAnswer(alg: 'HS256' | 'HS384' | 'HS512', key: Uint8Array, token: string): Promise<void> {
  // open, then verifyOpened: header, the core's HMAC, payload, claims.
  const verifier = selfTestVerifier(alg, key);
  const verify = (t: string): Promise<VerifyResult> =>
    new Promise((resolve) => resolve(verifier.verifyOpened(verifier.open(t))));
  if (
    !(await verify(token).then(
      (r) => r.payload.sub === 'self-test',
      () => false,
    ))
  )
    throw new SelfTestFailure(alg);
  // One changed signature character must be refused: a verify that accepts everything passes the above.
  const tampered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)!;
  if (
    await verify(tampered).then(
      () => true,
      () => false,
    )
  )
    throw new SelfTestFailure(`${alg}, tampered`);
}
