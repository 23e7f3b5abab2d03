// RS/PS/ES (and HMAC CryptoKeys) through crypto.subtle, in every runtime.
// Each key is imported once per algorithm and kept as a CryptoKey.

import type { AlgSpec } from '../algorithms.js';
import { subtleImportParams, subtleSignatureParams } from './subtle-params.js';
import { checkEcPoint } from '../keys/ec-point.js';
import { checkRsaExponent, checkRsaJwk } from '../keys/rsa-params.js';
import type { BackendKey, CryptoBackend, PublicJwk } from './types.js';

const encoder = new TextEncoder();

interface SubtleKey extends BackendKey {
  readonly native: CryptoKey;
  readonly params: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
}

export const backend: CryptoBackend = {
  name: 'webcrypto',
  async importJwk(spec: AlgSpec, jwk: PublicJwk): Promise<BackendKey> {
    if (jwk.kty === 'RSA') checkRsaJwk(jwk);
    // Some WebCrypto implementations import an off-curve point: never rely on it.
    else checkEcPoint(jwk);
    const native = await crypto.subtle.importKey('jwk', jwk as JsonWebKey, subtleImportParams(spec), false, ['verify']);
    const key: SubtleKey = { native, params: subtleSignatureParams(spec) };
    return key;
  },
  importCryptoKey(spec: AlgSpec, key: CryptoKey): BackendKey | Promise<BackendKey> {
    const wrapped: SubtleKey = { native: key, params: subtleSignatureParams(spec) };
    // The point of an extractable EC key is read back and checked on its curve (see importJwk).
    if (spec.kty === 'EC')
      return key.extractable
        ? crypto.subtle.exportKey('jwk', key).then((jwk) => (checkEcPoint(jwk), wrapped))
        : wrapped;
    if (spec.kty !== 'RSA') return wrapped;
    checkRsaExponent((key.algorithm as RsaHashedKeyAlgorithm).publicExponent);
    // The modulus can be read only from an extractable key; a non-extractable one keeps it to itself.
    if (!key.extractable) return wrapped;
    return crypto.subtle.exportKey('jwk', key).then((jwk) => {
      checkRsaJwk(jwk);
      return wrapped;
    });
  },
  verify(spec: AlgSpec, key: BackendKey, signingInput: string | Uint8Array, signature: Uint8Array): Promise<boolean> {
    const k = key as SubtleKey;
    // The bytes may be views of the Wasm core's memory, which the next verify writes
    // over. They are passed as they are: WebCrypto's verify takes a copy of both
    // arguments before it returns its promise (W3C Web Cryptography API, verify()
    // steps 2-3), so a later write cannot reach this check
    // (test/shared/backend-arguments.test.ts starts verifies back to back to prove it).
    const data = typeof signingInput === 'string' ? encoder.encode(signingInput) : signingInput;
    return crypto.subtle.verify(k.params, k.native, signature as BufferSource, data as BufferSource);
  },
};
export { signBackend } from './sign-webcrypto.js';
export { jweBackend } from './jwe-webcrypto.js';
