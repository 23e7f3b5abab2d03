// The rehearsal's EdDSA token (src/worker/rehearsal-eddsa.ts) is a committed literal, signed
// offline with RFC 8032 §7.1 TEST 1's published secret key: signed again here with node:crypto
// (Ed25519 is deterministic), it must be the same, verify under TEST 1's public key with
// node:crypto and jose, and fail with any signature byte changed.
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { jwtVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { REHEARSAL_EDDSA, eddsaRehearsal } from '../../src/worker/rehearsal-eddsa.js';
import { SELF_TEST } from '../../src/worker/self-test.js';

// RFC 8032 §7.1, TEST 1: SECRET KEY and PUBLIC KEY (hex).
const SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const PKCS8_ED25519_PREFIX = '302e020100300506032b657004220420';

const privateKey = createPrivateKey({ key: Buffer.from(PKCS8_ED25519_PREFIX + SECRET, 'hex'), format: 'der', type: 'pkcs8' });
const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(PUBLIC, 'hex').toString('base64url') };
const [header, payload, signature] = REHEARSAL_EDDSA.token.split('.') as [string, string, string];
const tampered = `${header}.${payload}.${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;

describe('the rehearsal EdDSA vector', () => {
  it('is RFC 8032 TEST 1 public key, the self-test claims, and the signature node:crypto makes', () => {
    expect(createPublicKey(privateKey).export({ format: 'jwk' })).toEqual(publicJwk);
    expect(REHEARSAL_EDDSA.publicKey).toBe(publicJwk.x);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'EdDSA', typ: 'JWT' });
    expect(payload).toBe(SELF_TEST.token.split('.')[1]);
    expect(sign(null, Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')).toBe(signature);
  });

  it('verifies under the public key with node:crypto and jose, and fails tampered', async () => {
    const pub = createPublicKey({ key: publicJwk, format: 'jwk' });
    expect(verify(null, Buffer.from(`${header}.${payload}`), pub, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(verify(null, Buffer.from(`${header}.${payload}`), pub, Buffer.from(tampered.split('.')[2]!, 'base64url'))).toBe(false);
    const key = await importJWK(publicJwk, 'EdDSA');
    const opts = { issuer: SELF_TEST.issuer, audience: SELF_TEST.issuer, algorithms: ['EdDSA'] };
    expect((await jwtVerify(REHEARSAL_EDDSA.token, key, opts)).payload.sub).toBe('self-test');
    await expect(jwtVerify(tampered, key, opts)).rejects.toThrow();
  });

  it('the rehearsal verifier accepts it and refuses it tampered', async () => {
    const v = eddsaRehearsal(0).verifier;
    expect((await v.verifyOpened(v.open(REHEARSAL_EDDSA.token))).payload.sub).toBe('self-test');
    await expect(Promise.resolve().then(() => v.verifyOpened(v.open(tampered)))).rejects.toThrow();
  });
});
