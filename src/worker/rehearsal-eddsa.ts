// The rehearsal's EdDSA token (rehearsal.ts): for a config whose issuers allow EdDSA, it
// takes the library's real Ed25519 path once at startup (the core's known answer, the key's
// import into a slot, the verify), so a fresh isolate's first EdDSA client request does not
// compile it. Signed once, offline, with RFC 8032 §7.1 TEST 1's published secret key
// (9d61b19d…7f60): its public key below is public by design, and no real key is involved.
// test/node/rehearsal-eddsa-vector.test.ts signs it again with node:crypto and checks it.

import { algSpec } from '../algorithms.js';
import { decodeSegment } from '../b64.js';
import { KeyEntry } from '../keys/entry.js';
import { singleKey } from '../keys/single.js';
import { policyFrom } from '../policy-from.js';
import { WasmHandle, type Handle } from '../signature.js';
import { twoStepVerifierFrom, type TwoStepVerifier } from '../verify-path.js';
import { importEd25519Key } from '../wasm/ed25519-key.js';
import { selfTestPolicy } from './self-test.js';

/**
 * RFC 8032 §7.1 TEST 1's public key (base64url) and a token it verifies: the self-test's
 * claims (issuer and audience `edgejwt:self-test`, exp 2100-01-01) under `{"alg":"EdDSA","typ":"JWT"}`.
 *
 * @example
 * REHEARSAL_EDDSA.publicKey; // '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'
 */
export const REHEARSAL_EDDSA = {
  publicKey: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  token:
    'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJlZGdland0OnNlbGYtdGVzdCIsImF1ZCI6ImVkZ2Vqd3Q6c2VsZi10ZXN0Iiwic3ViIjoic2VsZi10ZXN0IiwiZXhwIjo0MTAyNDQ0ODAwfQ.RwFidgTof3KfBfmzK3WhyRWlxrI8Z-BKqkg6mULN___5bgq7-C12FXOREXb0dTHHBNy3x9AZlt3nze5ONx3VBQ',
} as const;

/**
 * The verify path over the self-test's issuer for EdDSA alone, keyed with REHEARSAL_EDDSA's
 * public key, imported into the Wasm core at its first verify as a JWK's would be
 * (importEd25519Key: the known answer first), with `clockTolerance` seconds of skew.
 *
 * @example
 * const v = eddsaRehearsalVerifier();
 * v.verifyOpened(v.open(REHEARSAL_EDDSA.token));
 */
export function eddsaRehearsalVerifier(clockTolerance = 0): TwoStepVerifier {
  const data = selfTestPolicy('EdDSA');
  const policy = { ...data, claims: { ...data.claims, clockTolerance } };
  const x = decodeSegment(REHEARSAL_EDDSA.publicKey, 0, REHEARSAL_EDDSA.publicKey.length)!;
  let handle: Handle | undefined;
  const entry = new KeyEntry({ kty: 'OKP', crv: 'Ed25519', usable: true, make: () => (handle ??= new WasmHandle(importEd25519Key(x))), lazy: () => true });
  return twoStepVerifierFrom([policyFrom(policy, algSpec, (specs) => singleKey(entry, specs))]);
}
