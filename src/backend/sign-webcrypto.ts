// Signing through crypto.subtle in every runtime: each private key is imported
// once (non-extractable) and every sign is a promise.

import { HASH_BYTES, type AlgSpec } from '../algorithms.js';
import type { PrivateKeyInput, SignBackend, SignKey } from './sign-types.js';

const encoder = new TextEncoder();

interface SubtleSignKey extends SignKey {
  readonly native: CryptoKey;
  readonly params: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
}

function importParams(spec: AlgSpec): AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams | HmacImportParams {
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

function signParams(spec: AlgSpec): AlgorithmIdentifier | RsaPssParams | EcdsaParams {
  switch (spec.engine) {
    case 'rsa-pkcs1':
      return 'RSASSA-PKCS1-v1_5';
    case 'rsa-pss':
      // JWA fixes the salt length to the digest length (RFC 7518 §3.5).
      return { name: 'RSA-PSS', saltLength: HASH_BYTES[spec.hash] };
    case 'ecdsa':
      return { name: 'ECDSA', hash: spec.hash };
    case 'ed25519':
      return 'Ed25519';
    case 'hmac':
      return 'HMAC';
  }
}

export const signBackend: SignBackend = {
  name: 'webcrypto',
  async importPrivate(spec: AlgSpec, input: PrivateKeyInput): Promise<SignKey> {
    let native: CryptoKey;
    if (typeof CryptoKey !== 'undefined' && input instanceof CryptoKey) native = input;
    else if (typeof input === 'string') throw new TypeError('PEM keys need the node condition');
    else native = await crypto.subtle.importKey('jwk', input as JsonWebKey, importParams(spec), false, ['sign']);
    const key: SubtleSignKey = { native, params: signParams(spec) };
    return key;
  },
  describe(key: SignKey) {
    const k = (key as SubtleSignKey).native;
    const a = k.algorithm as KeyAlgorithm & { modulusLength?: number; namedCurve?: string; length?: number };
    const bits = a.modulusLength ?? a.length;
    return { type: k.type === 'private' ? a.name : k.type, ...(bits !== undefined ? { bits } : {}), ...(a.namedCurve !== undefined ? { curve: a.namedCurve } : {}) };
  },
  async sign(_spec: AlgSpec, key: SignKey, signingInput: string): Promise<Uint8Array> {
    const k = key as SubtleSignKey;
    return new Uint8Array(await crypto.subtle.sign(k.params, k.native, encoder.encode(signingInput)));
  },
};
