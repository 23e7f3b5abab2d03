/// <reference types="node" />
// RS/PS/ES (and HMAC CryptoKeys) through node:crypto's synchronous verify, chosen by
// the `node` export condition (Node, Bun, Deno). Node's WebCrypto runs on a thread
// pool and costs 20-40 µs more per call; this path makes verifySync serve RS/PS/ES.

import { toScratch } from './node-scratch.js';
import { Buffer } from 'node:buffer';
import { KeyObject, constants, createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { HASH_BYTES, type AlgSpec } from '../algorithms.js';
import { checkEcPoint } from '../keys/ec-point.js';
import { checkRsaJwk } from '../keys/rsa-params.js';
import type { BackendKey, CryptoBackend, PublicJwk } from './types.js';

const DIGEST = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

interface NodeKey extends BackendKey {
  readonly native: KeyObject;
  /** The key argument for crypto.verify, built once per key. */
  readonly arg: KeyObject | { key: KeyObject; padding?: number; saltLength?: number; dsaEncoding?: 'ieee-p1363' };
  readonly digest: string;
}

function wrap(spec: AlgSpec, native: KeyObject): NodeKey {
  // node:crypto imports an RSA key with e = 1 (or an even modulus) without complaint.
  if (native.asymmetricKeyType === 'rsa' || native.asymmetricKeyType === 'rsa-pss')
    checkRsaJwk(native.export({ format: 'jwk' }));
  // An EC KeyObject or CryptoKey may come from an importer that skipped the curve check.
  if (native.asymmetricKeyType === 'ec') checkEcPoint(native.export({ format: 'jwk' }));
  const digest = DIGEST[spec.hash];
  switch (spec.engine) {
    case 'rsa-pkcs1':
    case 'hmac':
      return { native, arg: native, digest };
    case 'rsa-pss':
      return {
        native,
        arg: { key: native, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: HASH_BYTES[spec.hash] },
        digest,
      };
    case 'ecdsa':
      // JWS carries raw r||s (RFC 7518 §3.4), never DER.
      return { native, arg: { key: native, dsaEncoding: 'ieee-p1363' }, digest };
    default:
      throw new TypeError(`no node:crypto verify for ${spec.engine}`);
  }
}

export const backend: CryptoBackend = {
  name: 'node',
  importJwk(spec: AlgSpec, jwk: PublicJwk): BackendKey {
    return wrap(spec, createPublicKey({ key: jwk, format: 'jwk' }));
  },
  importCryptoKey(spec: AlgSpec, key: CryptoKey): BackendKey {
    return wrap(spec, KeyObject.from(key));
  },
  verify(spec: AlgSpec, key: BackendKey, signingInput: string | Uint8Array, signature: Uint8Array): boolean {
    const k = key as NodeKey;
    const data = typeof signingInput === 'string' ? toScratch(signingInput) : signingInput;
    if (spec.engine === 'hmac') {
      const mac = createHmac(k.digest, k.native).update(data).digest();
      return mac.length === signature.length && timingSafeEqual(mac, signature);
    }
    return verify(k.digest, data, k.arg, signature);
  },
};
export { signBackend } from './sign-node.js';
export { jweBackend } from './jwe-node.js';
