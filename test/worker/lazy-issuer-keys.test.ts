// The guard builds each issuer's keys at the first token that selects it (the library's
// lazy construction): an inline key that only its costly checks refuse (here an EC point
// off its curve) no longer stops the guard from starting; the tokens of that issuer are
// refused as any key failure at verify time is (401 invalid_token), the other issuers'
// tokens pass. `edgejwt check-config` refuses the key before a deploy
// (test/node/check-config.test.ts, check_config_refuses_broken_inline_key). A set whose
// keys their members alone rule out (kty, crv, alg, use, key_ops) is refused at start.
import { describe, expect, it, vi } from 'vitest';
import worker from '../../src/worker/index.js';
import { b64u, generate, mint, unb64u } from '../shared/jwt-mint.js';
import { AUD, ISS, TestCtx, demoKeys, jwksOf, nowSeconds, token } from './harness.js';

const BROKEN_ISS = 'https://broken.example.com';

describe('guard_broken_inline_key_fails_closed', () => {
  it(
    "a token of the issuer whose inline key is off its curve is refused (401) every time; another issuer's " +
      'token passes',
    async () => {
      const k = await demoKeys();
      const es = await generate('ES256');
      const y = unb64u(es.publicJwk.y!);
      y[y.length - 1]! ^= 1;
      const broken = { ...es.publicJwk, y: b64u(y), kid: 'es-off', use: 'sig' };
      const env = {
        GUARD_CONFIG: {
          issuers: [
            { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) },
            { issuer: BROKEN_ISS, audience: AUD, algorithms: ['ES256'], jwks: { keys: [broken] } },
          ],
          origin: 'builtin:echo',
        },
      };
      const t = nowSeconds();
      // Signed by the genuine private key: only the published point is wrong.
      const esToken = await mint(
        es,
        { iss: BROKEN_ISS, aud: AUD, sub: 'bob', iat: t, exp: t + 600 },
        { kid: 'es-off', typ: 'JWT' },
      );
      for (let i = 0; i < 2; i++) {
        const res = await worker.fetch(
          new Request('https://api.example.com/x', { headers: { authorization: `Bearer ${esToken}` } }),
          env,
          new TestCtx(),
        );
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('invalid_token');
      }
      const ok = await worker.fetch(
        new Request('https://api.example.com/x', { headers: { authorization: `Bearer ${await token(k.ed)}` } }),
        env,
        new TestCtx(),
      );
      expect(ok.status).toBe(200);
    },
  );

  it(
    'an inline set whose keys its members rule out (use: enc) ' + 'fails at start: 500 for every request, log names it',
    async () => {
      // Issue 33: the cheap static checks (kty, crv, alg, use, key_ops) run at start; only costly ones wait for a
      // token.
      const k = await demoKeys();
      const es = await generate('ES256');
      const env = {
        GUARD_CONFIG: {
          issuers: [
            { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) },
            {
              issuer: BROKEN_ISS,
              audience: AUD,
              algorithms: ['ES256'],
              jwks: { keys: [{ ...es.publicJwk, kid: 'es-enc', use: 'enc' }] },
            },
          ],
          origin: 'builtin:echo',
        },
      };
      const logs: string[] = [];
      vi.spyOn(console, 'error').mockImplementation((l: string) => void logs.push(l));
      const headers = { authorization: `Bearer ${await token(k.ed)}` };
      const res = await worker.fetch(new Request('https://api.example.com/x', { headers }), env, new TestCtx());
      vi.restoreAllMocks();
      expect(res.status).toBe(500);
      expect(JSON.parse(logs[0]!)).toMatchObject({ edgejwt: 'config_error', setting: 'issuers[1].jwks' });
    },
  );
});
