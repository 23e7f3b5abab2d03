// Cases run inside workerd (bench/sign/sign-jwe-workerd.ts): signing (HS256 signSync,
// EdDSA/ES256 sign) and JWE decrypt (dir + A256GCM, claims and nested JWT), edgejwt
// against jose and the bare crypto.subtle call.
import * as jose from 'jose';
import { createEncrypter, createSigner, createVerifier, jweDecryption } from '../../src/index.ts';
import type { WorkerCase } from '../lib/workerd.ts';
import { PAYLOAD } from '../lib/signing-input.ts';
import { jweFixture } from '../lib/jwe-fixture.ts';
import { decodeBase64Url } from '../../src/platform/web.ts';
import { utf8 } from '../../src/utf8.ts';

const { exp: _exp, iat: _iat, ...CLAIMS } = PAYLOAD;
const enc = new TextEncoder();

export default async function setup(): Promise<WorkerCase[]> {
  const cases: WorkerCase[] = [];
  // ---- signing ----
  const secret = enc.encode('k'.repeat(32));
  const hs = createSigner({ alg: 'HS256', key: secret, header: { kid: 'k1' } });
  const hmacKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const input = enc.encode(hs.signSync(CLAIMS, { expiresIn: 300 }).split('.').slice(0, 2).join('.'));
  cases.push({ name: 'sign HS256 edgejwt signSync', fn: () => hs.signSync(CLAIMS, { expiresIn: 300 }) });
  cases.push({
    name: 'sign HS256 jose SignJWT',
    fn: () =>
      new jose.SignJWT(CLAIMS)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'k1' })
        .setIssuedAt()
        .setExpirationTime('300s')
        .sign(hmacKey),
    async: true,
  });
  cases.push({
    name: 'sign HS256 crypto.subtle.sign bare',
    fn: () => crypto.subtle.sign('HMAC', hmacKey, input),
    async: true,
  });
  for (const [alg, gen, params] of [
    ['EdDSA', { name: 'Ed25519' }, 'Ed25519'],
    ['ES256', { name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' }],
  ] as const) {
    const pair = (await crypto.subtle.generateKey(gen as EcKeyGenParams, true, ['sign', 'verify'])) as CryptoKeyPair;
    const s = createSigner({ alg, key: pair.privateKey, header: { kid: 'k1' } });
    await s.sign(CLAIMS, { expiresIn: 300 });
    cases.push({ name: `sign ${alg} edgejwt sign`, fn: () => s.sign(CLAIMS, { expiresIn: 300 }), async: true });
    cases.push({
      name: `sign ${alg} jose SignJWT`,
      fn: () =>
        new jose.SignJWT(CLAIMS)
          .setProtectedHeader({ alg, typ: 'JWT', kid: 'k1' })
          .setIssuedAt()
          .setExpirationTime('300s')
          .sign(pair.privateKey),
      async: true,
    });
    cases.push({
      name: `sign ${alg} crypto.subtle.sign bare`,
      fn: () => crypto.subtle.sign(params as EcdsaParams, pair.privateKey, input),
      async: true,
    });
    if (alg === 'EdDSA') {
      // What the guard's origin assertion costs per request: sub + scope, iss, aud, jti, 60 s.
      const claims = { sub: 'user-1', scope: 'read write' };
      const o = { expiresIn: 60, issuer: 'https://api.example.com', audience: 'https://origin.example.com' };
      cases.push({
        name: 'sign EdDSA edgejwt origin assertion',
        fn: () => s.sign(claims, { ...o, jwtId: crypto.randomUUID() }),
        async: true,
      });
    }
  }
  // ---- JWE decrypt ----
  const { cek, cekKey, direct, nested, ours } = await jweFixture(
    { createEncrypter, createVerifier, jweDecryption },
    { ...PAYLOAD, exp: 4102444800 },
    hs.signSync(CLAIMS, { expiresIn: 3600 }),
    secret,
  );
  const [h, , ivS, ctS, tagS] = direct.split('.') as [string, string, string, string, string];
  const unb = (s: string) =>
    Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4)), (c) =>
      c.charCodeAt(0),
    );
  const ct = unb(ctS);
  const tag = unb(tagS);
  const joined = new Uint8Array(ct.length + tag.length);
  joined.set(ct);
  joined.set(tag, ct.length);
  const iv = unb(ivS);
  const aad = enc.encode(h);
  cases.push({ name: 'jwe edgejwt verify (dir+A256GCM, claims)', fn: () => ours.verify(direct), async: true });
  cases.push({ name: 'jwe edgejwt verify (nested HS256)', fn: () => ours.verify(nested), async: true });
  cases.push({ name: 'jwe jose jwtDecrypt (key bytes)', fn: () => jose.jwtDecrypt(direct, cek), async: true });
  cases.push({ name: 'jwe jose jwtDecrypt (CryptoKey)', fn: () => jose.jwtDecrypt(direct, cekKey), async: true });
  cases.push({
    name: 'jwe crypto.subtle.decrypt bare',
    fn: () => crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 }, cekKey, joined),
    async: true,
  });
  // The floor: only what any decrypt of this token must do (split, base64url, AES-GCM, UTF-8,
  // JSON.parse), no header or claim checks, the AAD bytes kept between calls.
  const floorAad = new Map<string, Uint8Array>();
  const floor = async (t: string): Promise<unknown> => {
    const d1 = t.indexOf('.');
    const d2 = t.indexOf('.', d1 + 1);
    const d3 = t.indexOf('.', d2 + 1);
    const d4 = t.indexOf('.', d3 + 1);
    const head = t.slice(0, d1);
    let a = floorAad.get(head);
    if (a === undefined) floorAad.set(head, (a = enc.encode(head)));
    const c = decodeBase64Url(t.slice(d3 + 1, d4))!;
    const g = decodeBase64Url(t.slice(d4 + 1))!;
    const both = new Uint8Array(c.length + g.length);
    both.set(c);
    both.set(g, c.length);
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: decodeBase64Url(t.slice(d2 + 1, d3))! as BufferSource,
        additionalData: a as BufferSource,
        tagLength: 128,
      },
      cekKey,
      both,
    );
    return JSON.parse(utf8(new Uint8Array(plain))!);
  };
  cases.push({ name: 'jwe floor (split, decode, decrypt, JSON; no checks)', fn: () => floor(direct), async: true });
  return cases;
}
