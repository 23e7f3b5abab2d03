// The WebCrypto parameters for each JWS engine, shared by the verify and the sign
// backends: a signature takes the same parameters in both directions.

import { HASH_BYTES, type AlgSpec } from '../algorithms.js';

/** What `crypto.subtle.importKey` takes for a key of this algorithm. */
export function subtleImportParams(
  spec: AlgSpec,
): AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams | HmacImportParams {
  switch (spec.engine) {
    case 'rsa-pkcs1':
      return { name: 'RSASSA-PKCS1-v1_5', hash: spec.hash };
    case 'rsa-pss':
      return { name: 'RSA-PSS', hash: spec.hash };
    case 'ecdsa':
      return { name: 'ECDSA', namedCurve: spec.crv! };
    case 'ed25519':
      return { name: 'Ed25519' };
    case 'hmac':
      return { name: 'HMAC', hash: spec.hash };
  }
}

/** What `crypto.subtle.sign` and `crypto.subtle.verify` take for this algorithm. */
export function subtleSignatureParams(spec: AlgSpec): AlgorithmIdentifier | RsaPssParams | EcdsaParams {
  switch (spec.engine) {
    case 'rsa-pkcs1':
      return 'RSASSA-PKCS1-v1_5';
    case 'rsa-pss':
      // JWA fixes the salt length to the digest length (RFC 7518 §3.5); never auto-detect it.
      return { name: 'RSA-PSS', saltLength: HASH_BYTES[spec.hash] };
    case 'ecdsa':
      return { name: 'ECDSA', hash: spec.hash };
    case 'ed25519':
      return 'Ed25519';
    case 'hmac':
      return 'HMAC';
  }
}
