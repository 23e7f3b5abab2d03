// Signing through crypto.subtle in every runtime: each private key is imported
// once (non-extractable) and every sign is a promise.

import type { AlgSpec } from '../algorithms.js';
import { subtleImportParams, subtleSignatureParams } from './subtle-params.js';
import type { PrivateKeyInput, SignBackend, SignKey } from './sign-types.js';

const encoder = new TextEncoder();

interface SubtleSignKey extends SignKey {
  readonly native: CryptoKey;
  readonly params: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
}

export const signBackend: SignBackend = {
  name: 'webcrypto',
  async importPrivate(spec: AlgSpec, input: PrivateKeyInput): Promise<SignKey> {
    let native: CryptoKey;
    if (typeof CryptoKey !== 'undefined' && input instanceof CryptoKey) native = input;
    else if (typeof input === 'string') throw new TypeError('PEM keys need the node condition');
    else native = await crypto.subtle.importKey('jwk', input as JsonWebKey, subtleImportParams(spec), false, ['sign']);
    const key: SubtleSignKey = { native, params: subtleSignatureParams(spec) };
    return key;
  },
  describe(key: SignKey) {
    const k = (key as SubtleSignKey).native;
    const a = k.algorithm as KeyAlgorithm & { modulusLength?: number; namedCurve?: string; length?: number };
    const bits = a.modulusLength ?? a.length;
    return {
      type: k.type === 'private' ? a.name : k.type,
      ...(bits !== undefined ? { bits } : {}),
      ...(a.namedCurve !== undefined ? { curve: a.namedCurve } : {}),
    };
  },
  async sign(_spec: AlgSpec, key: SignKey, signingInput: string): Promise<Uint8Array> {
    const k = key as SubtleSignKey;
    return new Uint8Array(await crypto.subtle.sign(k.params, k.native, encoder.encode(signingInput)));
  },
};
