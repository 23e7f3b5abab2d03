// JWE in Node. Encrypt: edgejwt's encrypter (dir + A256GCM, claims as the payload)
// against jose's EncryptJWT, with crypto.subtle.encrypt of the same plaintext as the
// floor. Decrypt: edgejwt verify() of a compact JWE (dir + A256GCM, claims
// inside; and a nested HS256 JWT inside) against jose's jwtDecrypt (with the key as
// bytes and as a CryptoKey), with the bare AES-GCM primitives as the floor
// (crypto.subtle.decrypt, node:crypto createDecipheriv). Same ~450-byte claims set.
// Target checked at the end: edgejwt dir+A256GCM decrypt+claims ≥ 2x jose.
// Run: npm run build && node bench/sign/jwe.ts   (BENCH_SMOKE=1: seconds)
import { createCipheriv, createDecipheriv } from 'node:crypto';
import * as jose from 'jose';
import { createEncrypter, createSigner, createVerifier, jweDecryption } from '../../dist/index.js';
import { compareAsync, compare, formatTable, smoke, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { jweFixture } from '../lib/jwe-fixture.ts';
import { PAYLOAD } from '../lib/signing-input.ts';

const env = environment(['jose']);
printEnvironment(env);

const secret = crypto.getRandomValues(new Uint8Array(32));
const claims = { ...PAYLOAD, exp: 4102444800 };
const { cek, cekKey, encrypter, direct, nested, ours } = await jweFixture(
  { createEncrypter, createVerifier, jweDecryption },
  claims,
  createSigner({ alg: 'HS256', key: secret }).signSync(claims),
  secret,
);

// The bare primitive: decrypt the same ciphertext with the same AAD.
const [h, , ivS, ctS, tagS] = direct.split('.') as [string, string, string, string, string];
const aad = Buffer.from(h, 'latin1');
const iv = Buffer.from(ivS, 'base64url');
const ct = Buffer.from(ctS, 'base64url');
const tag = Buffer.from(tagS, 'base64url');
const joined = Buffer.concat([ct, tag]);

const asyncRows = await compareAsync([
  { name: 'edgejwt verify (dir+A256GCM, claims)', fn: () => ours.verify(direct) },
  { name: 'edgejwt verify (nested HS256 JWT)', fn: () => ours.verify(nested) },
  { name: 'jose jwtDecrypt (key bytes)', fn: () => jose.jwtDecrypt(direct, cek) },
  { name: 'jose jwtDecrypt (CryptoKey)', fn: () => jose.jwtDecrypt(direct, cekKey) },
  {
    name: 'crypto.subtle.decrypt (bare)',
    fn: () => crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 }, cekKey, joined),
  },
]);
const syncRows = compare([
  {
    name: 'node:crypto AES-256-GCM (bare)',
    fn: () => {
      const d = createDecipheriv('aes-256-gcm', cek, iv);
      d.setAAD(aad);
      d.setAuthTag(tag);
      return Buffer.concat([d.update(ct), d.final()]);
    },
  },
]);
const rows: Sample[] = [...asyncRows, ...syncRows];

// Encrypt: every candidate sets the same protected header and encrypts the same claims.
const cekEncKey = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['encrypt']);
const plaintext = new TextEncoder().encode(JSON.stringify(claims));
const encryptRows = await compareAsync([
  { name: 'edgejwt encrypt (dir+A256GCM, claims)', fn: () => encrypter.encrypt(claims) },
  {
    name: 'jose EncryptJWT (key bytes)',
    fn: () => new jose.EncryptJWT(claims).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(cek),
  },
  {
    name: 'jose EncryptJWT (CryptoKey)',
    fn: () => new jose.EncryptJWT(claims).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(cekEncKey),
  },
  {
    name: 'crypto.subtle.encrypt (bare)',
    fn: () =>
      crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)), additionalData: aad, tagLength: 128 },
        cekEncKey,
        plaintext,
      ),
  },
]);
encryptRows.push(
  ...compare([
    {
      name: 'node:crypto AES-256-GCM encrypt (bare)',
      fn: () => {
        const c = createCipheriv('aes-256-gcm', cek, crypto.getRandomValues(new Uint8Array(12)));
        c.setAAD(aad);
        const out = Buffer.concat([c.update(plaintext), c.final()]);
        return [out, c.getAuthTag()];
      },
    },
  ]),
);
console.log(
  '\n' +
    formatTable(
      'JWE encrypt in Node (dir+A256GCM, the same claims)',
      encryptRows,
      'edgejwt encrypt (dir+A256GCM, claims)',
    ) +
    '\n',
);
console.log(
  '\n' +
    formatTable(`JWE decrypt in Node (${direct.length}-char token)`, rows, 'edgejwt verify (dir+A256GCM, claims)') +
    '\n',
);
const med = (n: string) => rows.find((r) => r.name === n)!.medianNs;
const ratio =
  Math.min(med('jose jwtDecrypt (key bytes)'), med('jose jwtDecrypt (CryptoKey)')) /
  med('edgejwt verify (dir+A256GCM, claims)');
const target =
  `JWE dir+A256GCM decrypt+claims vs jose (its faster form): ${ratio.toFixed(2)}x faster (target ≥ 2x: ` +
  `${ratio >= 2 ? 'met' : 'NOT met'})`;
console.log(target);
console.log(
  smoke
    ? '(smoke run: figures not meaningful)'
    : 'Ratios: × edgejwt by median (> 1: slower than edgejwt); spread: p25–p75 over the rounds.',
);
console.log(`wrote ${writeResults('jwe-node', { env, rows, encryptRows, target })}`);
