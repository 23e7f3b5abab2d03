// Keys and signed tokens for the per-algorithm tables, with WebCrypto only so the
// same code runs in Node and inside workerd. Every variant signs the same realistic
// token (38-byte header, ~450-byte OIDC-like payload, as in signing-input.ts).
import { PAYLOAD } from './signing-input.ts';
import type { Algorithm as JwsAlgorithm } from '../../src/algorithms.ts';

export interface Variant {
  /** Row label, e.g. RS256-4096. */
  label: string;
  alg: JwsAlgorithm;
  /** RSA modulus bits; undefined for other families. */
  bits?: number;
}

export const VARIANTS: Variant[] = [
  { label: 'HS256', alg: 'HS256' },
  { label: 'HS384', alg: 'HS384' },
  { label: 'HS512', alg: 'HS512' },
  { label: 'EdDSA', alg: 'EdDSA' },
  { label: 'RS256-2048', alg: 'RS256', bits: 2048 },
  { label: 'RS384-2048', alg: 'RS384', bits: 2048 },
  { label: 'RS512-2048', alg: 'RS512', bits: 2048 },
  { label: 'RS256-3072', alg: 'RS256', bits: 3072 },
  { label: 'RS256-4096', alg: 'RS256', bits: 4096 },
  { label: 'PS256-2048', alg: 'PS256', bits: 2048 },
  { label: 'PS384-2048', alg: 'PS384', bits: 2048 },
  { label: 'PS512-2048', alg: 'PS512', bits: 2048 },
  { label: 'ES256', alg: 'ES256' },
  { label: 'ES384', alg: 'ES384' },
  { label: 'ES512', alg: 'ES512' },
];

/** Smoke runs (CI) take one variant per family: they only prove the bench works. */
export function benchVariants(smoke: boolean): Variant[] {
  return smoke ? VARIANTS.filter((v) => ['HS256', 'EdDSA', 'RS256-2048', 'ES256'].includes(v.label)) : VARIANTS;
}

const HASH: Record<string, string> = { '256': 'SHA-256', '384': 'SHA-384', '512': 'SHA-512' };
const CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };
const enc = new TextEncoder();

export function b64u(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? enc.encode(data) : data;
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** WebCrypto parameters for importKey (with the hash or curve) and for verify/sign. */
export function webCryptoParams(alg: string): { importParams: Algorithm; verifyParams: Algorithm } {
  const hash = HASH[alg.slice(2)]!;
  if (alg.startsWith('HS'))
    return { importParams: { name: 'HMAC', hash } as Algorithm, verifyParams: { name: 'HMAC' } };
  if (alg === 'EdDSA') return { importParams: { name: 'Ed25519' }, verifyParams: { name: 'Ed25519' } };
  if (alg.startsWith('RS'))
    return {
      importParams: { name: 'RSASSA-PKCS1-v1_5', hash } as Algorithm,
      verifyParams: { name: 'RSASSA-PKCS1-v1_5' },
    };
  if (alg.startsWith('PS'))
    return {
      importParams: { name: 'RSA-PSS', hash } as Algorithm,
      verifyParams: { name: 'RSA-PSS', saltLength: Number(alg.slice(2)) / 8 } as Algorithm,
    };
  return {
    importParams: { name: 'ECDSA', namedCurve: CURVE[alg]! } as Algorithm,
    verifyParams: { name: 'ECDSA', hash } as Algorithm,
  };
}

export interface Material {
  variant: Variant;
  token: string;
  /** Signing input bytes and signature bytes, for the bare primitives. */
  input: Uint8Array;
  sig: Uint8Array;
  /** WebCrypto public (or HMAC) key, imported for verify. */
  verifyKey: CryptoKey;
  /** HS: the secret as ASCII text (every peer accepts it) and its bytes. */
  secretText?: string;
  secret?: Uint8Array;
  /** Asymmetric: the public JWK without key_ops/ext. */
  jwk?: JsonWebKey;
  /** Sign another payload with the same key (for many distinct tokens). */
  sign(payload: object, header?: object): Promise<string>;
}

export async function material(v: Variant, payload: object = PAYLOAD): Promise<Material> {
  const { importParams, verifyParams } = webCryptoParams(v.alg);
  let signKey: CryptoKey;
  let verifyKey: CryptoKey;
  let secretText: string | undefined;
  let secret: Uint8Array | undefined;
  let jwk: JsonWebKey | undefined;
  if (v.alg.startsWith('HS')) {
    secretText = 'k'.repeat(Number(v.alg.slice(2)) / 8);
    secret = enc.encode(secretText);
    signKey = verifyKey = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, importParams, false, [
      'sign',
      'verify',
    ]);
  } else {
    const gen =
      v.bits !== undefined
        ? { ...importParams, modulusLength: v.bits, publicExponent: new Uint8Array([1, 0, 1]) }
        : importParams;
    const pair = (await crypto.subtle.generateKey(gen as RsaHashedKeyGenParams, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    signKey = pair.privateKey;
    verifyKey = pair.publicKey;
    jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
    delete jwk.key_ops;
    delete jwk.ext;
  }
  const sign = async (body: object, header: object = { alg: v.alg, typ: 'JWT', kid: 'k1' }): Promise<string> => {
    const signingInput = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(body))}`;
    const s = new Uint8Array(await crypto.subtle.sign(verifyParams, signKey, enc.encode(signingInput)));
    return `${signingInput}.${b64u(s)}`;
  };
  const token = await sign(payload);
  const dot = token.lastIndexOf('.');
  const input = enc.encode(token.slice(0, dot));
  const sig = fromB64u(token.slice(dot + 1));
  return { variant: v, token, input, sig, verifyKey, secretText, secret, jwk, sign };
}

export function fromB64u(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
