// `profile: "at+jwt"` per issuer: the library's RFC 9068 check (src/claims.ts) reached
// from the guard's config. A plain JWT, or an access token missing client_id or jti,
// is a 401 logged as ERR_JWT_PROFILE_MISMATCH naming the claim; the caches never
// hand a token verified without the profile to a guard that has it.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/worker/config.js';
import { AUD, CACHE_KEY, HS_ISS, baseConfig, bearer, demoKeys, makeGuard, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

/** baseConfig with the profile on the HS issuer. */
function profiled(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const c = baseConfig(k, extra);
  const issuers = (c.issuers as Record<string, unknown>[]).map((is) =>
    is.issuer === HS_ISS ? { ...is, profile: 'at+jwt' } : is,
  );
  return { ...c, issuers };
}

/** An RFC 9068 access token of the HS issuer; `extra` undefined removes a claim. */
function accessToken(
  extra: Record<string, unknown> = {},
  header: Record<string, unknown> = { typ: 'at+jwt' },
): Promise<string> {
  return token(k.hs, { client_id: 'client-1', jti: crypto.randomUUID(), ...extra }, header);
}

/** The rejection-log line's code and claim for the last refusal. */
function lastRejection(logs: string[]): { code?: string; claim?: string } {
  const line = logs.filter((l) => l.includes('"status":401')).at(-1);
  return line === undefined ? {} : (JSON.parse(line) as { code?: string; claim?: string });
}

describe('issuer profile "at+jwt" (RFC 9068)', () => {
  it(
    'at_jwt_profile_guard_accepts_access_token: typ at+jwt ' + '(or application/at+jwt) with the seven claims passes',
    async () => {
      const g = await makeGuard(k, { config: profiled() });
      expect((await g.send('/x', bearer(await accessToken()))).status).toBe(200);
      expect((await g.send('/x', bearer(await accessToken({}, { typ: 'application/AT+JWT' })))).status).toBe(200);
    },
  );

  it(
    'at_jwt_profile_guard_refuses_plain_jwt: typ JWT, or no typ, is a 401 logged as ERR_JWT_PROFILE_MISMATCH ' +
      '(claim typ)',
    async () => {
      const g = await makeGuard(k, { config: profiled() });
      for (const header of [{ typ: 'JWT' }, { typ: undefined }]) {
        const res = await g.send('/x', bearer(await accessToken({}, header)));
        expect(res.status, JSON.stringify(header)).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
        expect(lastRejection(g.logs)).toMatchObject({ code: 'ERR_JWT_PROFILE_MISMATCH', claim: 'typ' });
      }
      expect(g.guard.counters.get('rejected:ERR_JWT_PROFILE_MISMATCH')).toBe(2);
      // The other issuer has no profile: its plain JWTs still pass.
      expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    },
  );

  it('at_jwt_profile_guard_requires_client_id_and_jti: either missing is a 401 naming it', async () => {
    const g = await makeGuard(k, { config: profiled() });
    for (const claim of ['client_id', 'jti', 'sub', 'iat']) {
      const res = await g.send('/x', bearer(await accessToken({ [claim]: undefined })));
      expect(res.status, claim).toBe(401);
      expect(lastRejection(g.logs), claim).toMatchObject({ code: 'ERR_JWT_PROFILE_MISMATCH', claim });
    }
  });

  it(
    'at_jwt_profile_not_served_from_l2_without_it: a plain JWT verified into KV by a guard without the profile ' +
      'is refused by one with it',
    async () => {
      const cache = { verify: 'all', kvTimeoutMs: 25, verifyAdmission: 'always' };
      const plain = await token(k.hs, { sub: `plain-${crypto.randomUUID()}` });
      const before = await makeGuard(k, { config: { ...baseConfig(k), cache }, env: { CACHE_KEY } });
      expect((await before.send('/x', bearer(plain))).status).toBe(200);
      expect(before.guard.counters.get('l2_write')).toBe(1);
      const after = await makeGuard(k, { config: profiled({ cache }), env: { CACHE_KEY } });
      expect((await after.send('/x', bearer(plain))).status).toBe(401);
      expect(after.guard.counters.get('l2_hit')).toBe(0);
    },
  );

  it(
    'at_jwt_profile_needs_audience: a claims-only issuer with the profile, another profile name, or a ' +
      'conflicting typ is a ConfigError naming the setting',
    () => {
      const entry = { issuer: HS_ISS, algorithms: ['HS256'], secretBinding: 'HS_KEY' };
      expect(() => parseConfig({ issuers: [{ ...entry, claims: { client_id: 'c' }, profile: 'at+jwt' }] })).toThrow(
        /issuers\[0\]\.audience/,
      );
      for (const profile of ['AT+JWT', 'at-jwt', true, 9068]) {
        expect(() => parseConfig({ issuers: [{ ...entry, audience: AUD, profile }] })).toThrow(/issuers\[0\]\.profile/);
      }
      expect(() => parseConfig({ issuers: [{ ...entry, audience: AUD, profile: 'at+jwt', typ: 'JWT' }] })).toThrow(
        /issuers\[0\]\.typ/,
      );
      expect(
        parseConfig({ issuers: [{ ...entry, audience: AUD, profile: 'at+jwt', typ: 'application/at+jwt' }] })
          .issuers[0]!.profile,
      ).toBe('at+jwt');
      expect(
        parseConfig({ issuers: [{ ...entry, audience: AUD, claims: { client_id: 'c' }, profile: 'at+jwt' }] })
          .issuers[0]!.profile,
      ).toBe('at+jwt');
    },
  );
});
