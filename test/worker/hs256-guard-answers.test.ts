// What a one-issuer HS256 guard given only its stages (none: createGuard(config, { stages: [] })) answers: every
// refusal the guard gives such a
// config, with its status, challenge and logged code, and the accepted request. Pins that
// no cut to the guard's stages drops an answer.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGuard } from '../../src/worker/api.js';
import { b64u } from '../shared/jwt-mint.js';
import { AUD, HS_ISS, TestCtx, bearer, demoKeys, nowSeconds, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

const RAW = {
  issuers: [
    { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', claims: { tenant: 'acme' } },
  ],
  origin: 'builtin:echo',
  cache: { jwks: false },
};

describe('one-issuer HS256 guard answers', () => {
  it(
    'hs256_guard_answers_every_refusal: missing, malformed, method override, path, signature, expiry, nbf, ' +
      'issuer, audience, algorithm, claims, cnf, forwarding, depth; and the accepted request',
    async () => {
      const lines: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((l: string) => void lines.push(l));
      const g = createGuard(RAW, { stages: [] });
      const env = { HS_KEY: b64u(k.hs.secret!) };
      const t = nowSeconds();
      const ok = { tenant: 'acme' };
      const good = await token(k.hs, ok);
      const flipped = good.slice(0, -2) + (good.at(-2) === 'A' ? 'B' : 'A') + good.at(-1)!;
      const [h, p] = good.split('.') as [string, string];
      const none = `${b64u(new TextEncoder().encode('{"alg":"none","typ":"JWT"}'))}.${p}.c2ln`;
      let deep: unknown = 1;
      for (let i = 0; i < 70; i++) deep = { d: deep };
      const cases: [
        what: string,
        init: RequestInit,
        path: string,
        status: number,
        code: string | undefined,
        challenge: RegExp | null,
      ][] = [
        ['no token', {}, '/x', 401, 'missing_token', /^Bearer realm="edgejwt"$/],
        [
          'malformed',
          { headers: { authorization: 'Bearer a b' } },
          '/x',
          400,
          'malformed_token',
          /error="invalid_request"/,
        ],
        [
          'method override',
          { headers: { authorization: `Bearer ${good}`, 'x-http-method-override': 'DELETE' } },
          '/x',
          400,
          'method_override',
          null,
        ],
        ['escaped slash', bearer(good), '/a%2Fb', 400, undefined, null],
        [
          'signature',
          bearer(flipped),
          '/x',
          401,
          'ERR_JWS_SIGNATURE_INVALID',
          /error="invalid_token", error_description="The access token is invalid"/,
        ],
        [
          'expired',
          bearer(await token(k.hs, { ...ok, exp: t - 10 })),
          '/x',
          401,
          'ERR_JWT_EXPIRED',
          /error_description="The access token expired"/,
        ],
        [
          'not yet valid',
          bearer(await token(k.hs, { ...ok, nbf: t + 600 })),
          '/x',
          401,
          'ERR_JWT_NOT_YET_VALID',
          /error_description="The access token is not valid yet"/,
        ],
        [
          'other issuer',
          bearer(await token(k.hs, { ...ok, iss: 'https://other.example.com' })),
          '/x',
          401,
          'wrong_issuer',
          /error="invalid_token"/,
        ],
        [
          'audience',
          bearer(await token(k.hs, { ...ok, aud: 'other' })),
          '/x',
          401,
          'ERR_JWT_CLAIM_INVALID',
          /error="invalid_token"/,
        ],
        ['alg none', bearer(none), '/x', 401, 'ERR_JWS_ALG_NOT_ALLOWED', /error="invalid_token"/],
        [
          'issuer claims',
          bearer(await token(k.hs, { tenant: 'other' })),
          '/x',
          401,
          'claim_mismatch',
          /error="invalid_token"/,
        ],
        [
          'cnf',
          bearer(await token(k.hs, { ...ok, cnf: { jkt: 'abc' } })),
          '/x',
          401,
          'unproven_confirmation',
          /error="invalid_token"/,
        ],
        [
          'sub not forwardable',
          bearer(await token(k.hs, { ...ok, sub: ' alice' })),
          '/x',
          401,
          'claim_not_forwardable',
          /error="invalid_token"/,
        ],
        [
          'payload depth',
          bearer(await token(k.hs, { ...ok, deep })),
          '/x',
          401,
          'ERR_JWT_PAYLOAD_INVALID',
          /error="invalid_token"/,
        ],
      ];
      expect(h.length).toBeGreaterThan(0);
      for (const [what, init, path, status, code, challenge] of cases) {
        lines.length = 0;
        const ctx = new TestCtx();
        const res = await g.fetch(new Request(`https://api.example.com${path}`, init), env, ctx);
        await ctx.settle();
        expect(res.status, what).toBe(status);
        const www = res.headers.get('www-authenticate');
        if (challenge === null) expect(www, what).toBeNull();
        else expect(www, what).toMatch(challenge);
        expect(res.headers.get('cache-control'), what).toBe('no-store');
        const rejected = lines
          .map((l) => JSON.parse(l) as { edgejwt: string; code?: string })
          .filter((l) => l.edgejwt === 'rejected');
        expect(
          rejected.map((l) => l.code),
          what,
        ).toEqual(code === undefined ? [] : [code]);
        // No refusal carries the token, in the answer or the log.
        expect(lines.join('\n') + (await res.text()), what).not.toContain(good.split('.')[2]!);
      }
      const ctx = new TestCtx();
      const res = await g.fetch(new Request('https://api.example.com/orders', bearer(good)), env, ctx);
      await ctx.settle();
      expect(res.status).toBe(200);
      const echoed = (await res.json()) as { path: string; headers: Record<string, string> };
      expect(echoed.path).toBe('/orders');
      expect(echoed.headers['x-auth-sub']).toBe('alice');
    },
  );
});
