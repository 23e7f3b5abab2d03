// The public API end to end for every algorithm, sync and async.
import { describe, expect, it } from 'vitest';
import { createVerifier, JwtError } from '../../src/index.js';
import { claims, codeOf, generate, mint, nowDate } from './jwt-mint.js';

const ALGS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

describe('verify every algorithm', () => {
  for (const alg of ALGS) {
    it(`${alg}: valid token verifies; tampered one does not`, async () => {
      const pair = await generate(alg);
      const token = await mint(pair, claims(), { typ: 'JWT', kid: 'k1' });
      const key = pair.secret ?? pair.publicJwk;
      const v = createVerifier({
        algorithms: [alg],
        key,
        currentDate: nowDate,
        issuer: 'https://issuer.example',
        audience: 'api',
      });
      const r = await v.verify(token);
      expect(r.payload.sub).toBe('user-1');
      expect(r.header.alg).toBe(alg);
      expect(r.header.kid).toBe('k1');
      const parts = token.split('.');
      const sig = parts[2]!;
      const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
      expect(await codeOf(() => v.verify(`${parts[0]}.${parts[1]}.${flipped}`))).toBe('ERR_JWS_SIGNATURE_INVALID');
      const other = b64(JSON.stringify(claims({ sub: 'admin' })));
      expect(await codeOf(() => v.verify(`${parts[0]}.${other}.${sig}`))).toBe('ERR_JWS_SIGNATURE_INVALID');
    });
  }

  it('verifySync serves HS256 with no promise', async () => {
    const pair = await generate('HS256');
    const token = await mint(pair, claims());
    const v = createVerifier({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, cache: false });
    const r = v.verifySync(token);
    expect(r).not.toBeInstanceOf(Promise);
    expect(r.payload.iss).toBe('https://issuer.example');
  });

  it('verifySync serves EdDSA with no promise', async () => {
    const pair = await generate('EdDSA');
    const token = await mint(pair, claims());
    const v = createVerifier({ algorithms: ['EdDSA'], key: pair.publicJwk, currentDate: nowDate, cache: false });
    expect(v.verifySync(token).payload.sub).toBe('user-1');
  });

  for (const alg of ['RS256', 'PS256', 'ES256'] as const) {
    it(
      `verifySync ${alg}: served synchronously by the node:crypto backend, else ERR_ASYNC_REQUIRED; never a ` +
        `promise`,
      async () => {
        const pair = await generate(alg);
        const token = await mint(pair, claims());
        const v = createVerifier({ algorithms: [alg], key: pair.publicJwk, currentDate: nowDate, cache: false });
        let out: unknown;
        try {
          out = v.verifySync(token);
        } catch (e) {
          out = e;
        }
        expect(out).not.toBeInstanceOf(Promise);
        if (out instanceof JwtError) {
          expect(out.code).toBe('ERR_ASYNC_REQUIRED');
          // verify() always works, and then the WebCrypto key is ready but the signature still needs a promise.
          expect((await v.verify(token)).payload.sub).toBe('user-1');
          expect(() => v.verifySync(token)).toThrow(JwtError);
        } else {
          expect((out as { payload: { sub: string } }).payload.sub).toBe('user-1');
        }
      },
    );
  }

  it('errors are JwtError instances with fixed messages', async () => {
    const pair = await generate('HS256');
    const token = await mint(pair, claims({ exp: 1 }));
    const v = createVerifier({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate });
    const err = await v.verify(token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JwtError);
    expect((err as JwtError).code).toBe('ERR_JWT_EXPIRED');
    expect((err as JwtError).message).toBe('token has expired');
    expect((err as JwtError).message).not.toContain(token.slice(0, 10));
  });
});

function b64(s: string): string {
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
