// Known-answer verifies of the Wasm core: a token through the library's own verify path
// (the core's hashing and signature code, the header, payload and claims code every
// algorithm shares), and a tampered copy that must fail. `selfTest` (HS256) runs when
// createGuard's guard is warmed at module scope, before it serves anything; a compiled
// entry instead runs the core's own known answers (self-test-core.ts) before each core
// family's first verify (self-test-gate.ts): HS256 for HS*, Ed25519 for EdDSA.

import { hmacPolicy } from '../hmac/source.js';
import { buildTwoStepVerifierWith, type IssuerPolicy, type PolicyMaker } from '../verify-path.js';
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
 * The Wasm core's families, each with its own known answer: HMAC over SHA-256 (`HS`), over
 * SHA-384 and over SHA-512 (each hash has its own constants and code in the core), and Ed25519.
 */
export type CoreFamily = 'HS' | 'HS384' | 'HS512' | 'EdDSA';

/**
 * The core family that verifies `alg`, or undefined for an algorithm the core does not verify
 * (RS*, PS*, ES*: WebCrypto). Both names of Ed25519 (`EdDSA`, `Ed25519`) are the EdDSA family;
 * test/node/self-test-vector.test.ts checks this against the algorithm table.
 *
 * @example
 * coreFamily('HS256'); // 'HS'
 * coreFamily('HS512'); // 'HS512'
 * coreFamily('Ed25519'); // 'EdDSA'
 * coreFamily('RS256'); // undefined
 */
export function coreFamily(alg: string): CoreFamily | undefined {
  return alg === 'HS384' || alg === 'HS512' ? alg : alg.startsWith('HS') ? 'HS' : alg === 'EdDSA' || alg === 'Ed25519' ? 'EdDSA' : undefined;
}

/** The token's iss and aud, its key (bytes 0..31, public by design) and the token itself. */
export const SELF_TEST = {
  issuer: 'edgejwt:self-test',
  key: Uint8Array.from({ length: 32 }, (_, i) => i),
  token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlZGdland0OnNlbGYtdGVzdCIsImF1ZCI6ImVkZ2Vqd3Q6c2VsZi10ZXN0Iiwic3ViIjoic2VsZi10ZXN0IiwiZXhwIjo0MTAyNDQ0ODAwfQ.tANlDEY5YK016qx2Qjb9_uOFYf0f0MCdpTUeJpaSJzQ',
} as const;

/** The self-test failed: the Wasm core gives wrong answers; the guard must not serve. */
export class SelfTestFailure extends ConfigError {
  constructor(which: string) {
    super('self-test', `the known-answer verify failed (${which}): the Wasm core is broken`);
  }
}

/** The payload both known-answer tokens carry, as the core must decode it. */
export const SELF_TEST_PAYLOAD = '{"iss":"edgejwt:self-test","aud":"edgejwt:self-test","sub":"self-test","exp":4102444800}';

/** The EdDSA known answer (self-test-core.ts): the same claims, signed with the Ed25519 key whose public half is `x` (the private half was not kept). */
export const SELF_TEST_ED25519 = {
  issuer: 'edgejwt:self-test',
  x: 'HUMUbofIRzua9QTFXqOn2Z1XThzoW3GJO4N95q-Oiu4',
  token: 'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlZGdland0OnNlbGYtdGVzdCIsImF1ZCI6ImVkZ2Vqd3Q6c2VsZi10ZXN0Iiwic3ViIjoic2VsZi10ZXN0IiwiZXhwIjo0MTAyNDQ0ODAwfQ.FLZeyndefdxyS5i1nFabYIqQ4xcMwpURGmaGxXwuQM6pWeP26LEfVgY0YRLW2xR_e9JJ4t9JCYuGDsA9z0mkBw',
} as const;

/** The HS384 and HS512 known answers: the same claims, under SELF_TEST.key. */
export const SELF_TEST_HMAC_SHA2 = {
  HS384: 'eyJhbGciOiJIUzM4NCIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlZGdland0OnNlbGYtdGVzdCIsImF1ZCI6ImVkZ2Vqd3Q6c2VsZi10ZXN0Iiwic3ViIjoic2VsZi10ZXN0IiwiZXhwIjo0MTAyNDQ0ODAwfQ.Hi81RME0K1305NyP83StWprBrrTtB84xqwUv7gHfjaAUmGDrviS1M5kMRHc8RQ11',
  HS512: 'eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlZGdland0OnNlbGYtdGVzdCIsImF1ZCI6ImVkZ2Vqd3Q6c2VsZi10ZXN0Iiwic3ViIjoic2VsZi10ZXN0IiwiZXhwIjo0MTAyNDQ0ODAwfQ.tjGbxigM9eF4xZQnkKt1dYIEOfj_LQy2xq_-_zsruIomeBSPhoH6TAWZcuLrdWUNF46XNP9raoFtJf7fpG37lQ',
} as const;

/** Verify the HS256 known answer and refuse its tampered copy; rejects with SelfTestFailure otherwise. */
export function selfTest(): Promise<void> {
  const { issuer, key, token } = SELF_TEST;
  // The verify path every guard runs, over HMAC policies: a guard without key sets bundles no other key code.
  return knownAnswer('HS256', { issuer, audience: issuer, algorithms: [...SELF_TEST_ALGORITHMS], key }, token, hmacPolicy);
}

async function knownAnswer(alg: string, issuer: IssuerPolicy, token: string, policyOf: PolicyMaker): Promise<void> {
  const verifier = buildTwoStepVerifierWith({ cache: false, issuers: [issuer] }, policyOf);
  if (!(await verifier.verify(token).then((r) => r.payload.sub === 'self-test', () => false))) throw new SelfTestFailure(alg);
  // One changed signature character must be refused: a verify that accepts everything passes the above.
  const tampered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)!;
  if (await verifier.verify(tampered).then(() => true, () => false)) throw new SelfTestFailure(`${alg}, tampered`);
}
