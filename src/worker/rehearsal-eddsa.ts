// The rehearsal's EdDSA token (rehearsal.ts): for a config whose issuers allow EdDSA, it
// takes the library's real Ed25519 path once at startup (an inline key set's JWK, the core's
// known answer, the key's import into a slot, the verify), so a fresh isolate's first EdDSA
// client request does not compile it. Signed once, offline, with RFC 8032 §7.1 TEST 1's
// published secret key (9d61b19d…7f60): its public key below is public by design, and no
// real key is involved. test/node/rehearsal-eddsa-vector.test.ts signs it again and checks it.
// Reached through the keySets feature (key-sets.ts), which every EdDSA config needs: an
// HMAC-only guard's bundle carries none of it.

import { algSpec } from '../algorithms.js';
import { createLocalJWKSet } from '../keys/local.js';
import { policyFrom } from '../policy-from.js';
import { twoStepVerifierFrom, type TwoStepVerifier } from '../verify-path.js';
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

/** A rehearsal's token and the verifier that accepts it. */
export interface RehearsalVector {
  token: string;
  verifier: TwoStepVerifier;
}

/**
 * REHEARSAL_EDDSA's token, and the verify path over the self-test's issuer for EdDSA alone
 * keyed with an inline set of its one public key (built, and imported into the Wasm core,
 * at its first verify, as a configured `jwks` key is), with `clockTolerance` seconds of skew.
 *
 * @example
 * const { token, verifier } = eddsaRehearsal(0);
 * verifier.verifyOpened(verifier.open(token));
 */
export function eddsaRehearsal(clockTolerance: number): RehearsalVector {
  const keys = createLocalJWKSet({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: REHEARSAL_EDDSA.publicKey }] });
  return { token: REHEARSAL_EDDSA.token, verifier: twoStepVerifierFrom([policyFrom(selfTestPolicy('EdDSA', clockTolerance), algSpec, () => keys)]) };
}
