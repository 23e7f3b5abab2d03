// Cases run inside workerd (bench/verify/verify-workerd.ts): full verify of the same
// realistic token per algorithm, edgejwt vs jose, hono, @tsndr and bare crypto.subtle,
// plus the verify cache hit and decode-only.
import * as jose from 'jose';
import { verify as honoVerify } from 'hono/jwt';
import tsndr from '@tsndr/cloudflare-worker-jwt';
import { createVerifier, decodeUnverified } from '../../src/index.ts';
import type { WorkerCase } from '../lib/workerd.ts';
import { PAYLOAD } from '../lib/signing-input.ts';

const enc = new TextEncoder();
const b64u = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const PARAMS: Record<
  string,
  { gen: RsaHashedKeyGenParams | EcKeyGenParams | Algorithm; sign: AlgorithmIdentifier | RsaPssParams | EcdsaParams }
> = {
  EdDSA: { gen: { name: 'Ed25519' }, sign: 'Ed25519' },
  RS256: {
    gen: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    } as RsaHashedKeyGenParams,
    sign: 'RSASSA-PKCS1-v1_5',
  },
  ES256: { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
};

export default async function setup(): Promise<WorkerCase[]> {
  const cases: WorkerCase[] = [];
  for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256'] as const) {
    const input =
      `${b64u(enc.encode(JSON.stringify({ alg, typ: 'JWT', kid: 'k1' })))}.` +
      `${b64u(enc.encode(JSON.stringify(PAYLOAD)))}`;
    const data = enc.encode(input);
    let verifyKey: CryptoKey;
    let sig: Uint8Array;
    let ourKey: Uint8Array | JsonWebKey;
    let honoKey: string | CryptoKey;
    const verifyParams = alg === 'HS256' ? 'HMAC' : PARAMS[alg]!.sign;
    if (alg === 'HS256') {
      const secretText = 'k'.repeat(32);
      ourKey = enc.encode(secretText);
      honoKey = secretText;
      verifyKey = await crypto.subtle.importKey(
        'raw',
        ourKey as Uint8Array<ArrayBuffer>,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
      sig = new Uint8Array(await crypto.subtle.sign('HMAC', verifyKey, data));
    } else {
      const pair = (await crypto.subtle.generateKey(PARAMS[alg]!.gen, true, ['sign', 'verify'])) as CryptoKeyPair;
      verifyKey = pair.publicKey;
      honoKey = pair.publicKey;
      const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
      delete jwk.key_ops;
      delete jwk.ext;
      ourKey = jwk;
      sig = new Uint8Array(await crypto.subtle.sign(PARAMS[alg]!.sign, pair.privateKey, data));
    }
    const token = `${input}.${b64u(sig)}`;
    const ours = createVerifier({ algorithms: [alg], key: ourKey as never, cache: false });
    const cached = createVerifier({ algorithms: [alg], key: ourKey as never });
    await ours.verify(token);
    await cached.verify(token);
    const joseKey = alg === 'HS256' ? (ourKey as Uint8Array) : verifyKey;
    await jose.jwtVerify(token, joseKey, { algorithms: [alg] });
    await honoVerify(token, honoKey as never, alg as never);
    const tsndrOk = alg !== 'EdDSA';
    if (tsndrOk && !(await tsndr.verify(token, (alg === 'HS256' ? honoKey : verifyKey) as never, { algorithm: alg })))
      throw new Error(`@tsndr rejected ${alg}`);
    const wasm = alg === 'HS256' || alg === 'EdDSA';
    cases.push(
      wasm
        ? { name: `${alg} edgejwt verifySync`, fn: () => ours.verifySync(token) }
        : { name: `${alg} edgejwt verify`, fn: () => ours.verify(token), async: true },
    );
    cases.push({
      name: `${alg} jose jwtVerify`,
      fn: () => jose.jwtVerify(token, joseKey, { algorithms: [alg] }),
      async: true,
    });
    cases.push({
      name: `${alg} hono jwt verify`,
      fn: () => honoVerify(token, honoKey as never, alg as never),
      async: true,
    });
    if (tsndrOk)
      cases.push({
        name: `${alg} @tsndr/cloudflare-worker-jwt`,
        fn: () => tsndr.verify(token, (alg === 'HS256' ? honoKey : verifyKey) as never, { algorithm: alg }),
        async: true,
      });
    cases.push({
      name: `${alg} crypto.subtle.verify bare`,
      fn: () => crypto.subtle.verify(verifyParams, verifyKey, sig as Uint8Array<ArrayBuffer>, data),
      async: true,
    });
    if (alg === 'HS256') {
      cases.push({ name: 'cache hit edgejwt (fresh string)', fn: () => cached.verifySync((' ' + token).slice(1)) });
      cases.push({ name: 'decode edgejwt decodeUnverified', fn: () => decodeUnverified(token) });
      cases.push({ name: 'decode jose decodeJwt', fn: () => jose.decodeJwt(token) });
    }
  }
  return cases;
}
