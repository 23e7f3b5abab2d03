/// <reference types="node" />
// Signing through node:crypto's synchronous sign (the `node` condition): every
// algorithm is available to signSync. Ed25519 signs here (OpenSSL), never in the Wasm core.

import { toScratch } from './node-scratch.js';
import { Buffer } from 'node:buffer';
import { KeyObject, constants, createHmac, createPrivateKey, sign } from 'node:crypto';
import { HASH_BYTES, type AlgSpec } from '../algorithms.js';
import type { PrivateKeyInput, SignBackend, SignKey } from './sign-types.js';

const DIGEST = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

interface NodeSignKey extends SignKey {
  readonly native: KeyObject;
  readonly arg: KeyObject | { key: KeyObject; padding?: number; saltLength?: number; dsaEncoding?: 'ieee-p1363' };
  readonly digest: string | null;
}

function toKeyObject(input: PrivateKeyInput): KeyObject {
  if (input instanceof KeyObject) return input;
  if (typeof input === 'string') return createPrivateKey({ key: input, format: 'pem' });
  if (typeof CryptoKey !== 'undefined' && input instanceof CryptoKey) return KeyObject.from(input);
  return createPrivateKey({ key: input as never, format: 'jwk' });
}

export const signBackend: SignBackend = {
  name: 'node',
  importPrivate(spec: AlgSpec, input: PrivateKeyInput): SignKey {
    const native = toKeyObject(input);
    const digest = spec.engine === 'ed25519' ? null : DIGEST[spec.hash];
    let arg: NodeSignKey['arg'] = native;
    if (spec.engine === 'rsa-pss')
      arg = { key: native, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: HASH_BYTES[spec.hash] };
    // JWS carries raw r||s (RFC 7518 §3.4), never DER.
    else if (spec.engine === 'ecdsa') arg = { key: native, dsaEncoding: 'ieee-p1363' };
    const key: NodeSignKey = { native, arg, digest };
    return key;
  },
  describe(key: SignKey) {
    const k = (key as NodeSignKey).native;
    if (k.type === 'secret') return { type: 'secret', bits: (k.symmetricKeySize ?? 0) * 8 };
    const d = k.asymmetricKeyDetails ?? {};
    const type = k.type === 'private' ? (k.asymmetricKeyType ?? 'unknown') : 'public';
    // RSA: n and e for the parameter checks (src/keys/rsa-params.ts) that node:crypto does not make.
    const rsa = type === 'rsa' || type === 'rsa-pss' ? k.export({ format: 'jwk' }) : undefined;
    return {
      type,
      ...(d.modulusLength !== undefined ? { bits: d.modulusLength } : {}),
      ...(d.namedCurve !== undefined ? { curve: d.namedCurve } : {}),
      ...(rsa !== undefined ? { rsa: { n: rsa.n, e: rsa.e } } : {}),
    };
  },
  sign(spec: AlgSpec, key: SignKey, signingInput: string): Uint8Array {
    const k = key as NodeSignKey;
    const data = toScratch(signingInput);
    if (spec.engine === 'hmac') return createHmac(k.digest!, k.native).update(data).digest();
    return sign(k.digest, data, k.arg);
  },
};
