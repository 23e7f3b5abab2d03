// Adversarial regression tests for the revocation stage and its admin endpoint:
// each test is named after a hole found in the issue 25 stages.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUD,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  makeGuard,
  nowSeconds,
  token,
  ISS,
  type Keys,
} from '../../harness.js';

const PATH = '/__guard/revocations';
const SECRET = 'revocation-admin-secret-0123456789';
let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

function config(extra: Record<string, unknown> = {}, issuer: string | string[] = ISS): Record<string, unknown> {
  const c = baseConfig(k, {
    revocation: { path: PATH, secretBinding: 'REVOCATION_SECRET', store: 'isolate' },
    ...extra,
  });
  const first = (c.issuers as Record<string, unknown>[])[0]!;
  first.jwksUrl = freshJwksUrl();
  first.issuer = issuer;
  return c;
}

const admin = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'x-guard-admin': SECRET },
});

describe('revocation: the holes found in its stage stay closed', () => {
  it(
    'revocation_by_subject_covers_every_iss_spelling: a subject revoked under one iss spelling of an issuer ' +
      'entry is revoked under all of them',
    async () => {
      const alias = `${ISS}/`;
      const g = await makeGuard(k, { config: config({}, [ISS, alias]), env: { REVOCATION_SECRET: SECRET } });
      const now = nowSeconds();
      const viaAlias = await token(k.ed, { iss: alias, sub: 'mallory', iat: now - 10 });
      const viaMain = await token(k.ed, { iss: ISS, sub: 'mallory', iat: now - 10 });
      expect((await g.send('/x', bearer(viaAlias))).status).toBe(200);
      // The operator names the issuer as the entry spells it first.
      expect((await g.send(PATH, admin({ iss: ISS, sub: 'mallory', issuedBefore: now, exp: now + 3600 }))).status).toBe(
        200,
      );
      expect((await g.send('/x', bearer(viaMain))).status).toBe(401);
      expect((await g.send('/x', bearer(viaAlias))).status).toBe(401);
      // And the other way round, for another subject.
      const bob = await token(k.ed, { iss: ISS, sub: 'bob', iat: now - 10 });
      expect((await g.send(PATH, admin({ iss: alias, sub: 'bob', issuedBefore: now, exp: now + 3600 }))).status).toBe(
        200,
      );
      expect((await g.send('/x', bearer(bob))).status).toBe(401);
      // Another subject of the same issuer, and the same subject name at another issuer entry, pass.
      expect((await g.send('/x', bearer(await token(k.ed, { iss: alias, sub: 'alice' })))).status).toBe(200);
      expect((await g.send('/x', bearer(await token(k.hs, { sub: 'mallory', iat: now - 10 })))).status).toBe(200);
    },
  );

  it(
    "revocation_outlives_clock_tolerance: a jti entry set to the token's exp still refuses the token while the " +
      'guard accepts it (exp + clockTolerance)',
    async () => {
      const real = nowSeconds();
      let clock = (real - 40) * 1000;
      const g = await makeGuard(k, {
        config: config({ clockTolerance: 60 }),
        env: { REVOCATION_SECRET: SECRET },
        deps: { now: () => clock },
      });
      // Expired 20 s ago by the clock, within the 60 s tolerance: the guard accepts it.
      const exp = real - 20;
      const t = await token(k.ed, { jti: 'stolen', iat: real - 100, exp, aud: AUD });
      // Revoked while it was still in date, to exactly its exp, as the docs say to.
      expect((await g.send(PATH, admin({ jti: 'stolen', exp }))).status).toBe(200);
      expect((await g.send('/x', bearer(t))).status).toBe(401);
      clock = real * 1000;
      expect((await g.send('/x', bearer(t))).status).toBe(401);
      // A token without the revoked jti, expired as long ago, is still accepted: the tolerance itself is untouched.
      expect((await g.send('/x', bearer(await token(k.ed, { jti: 'other', iat: real - 100, exp })))).status).toBe(200);
    },
  );

  it(
    'reserved_path_spellings_never_forwarded: another spelling of the revocation or admin path (escape, case, ' +
      ';param, //) is refused 404, never sent to the origin with the admin secret',
    async () => {
      const g = await makeGuard(k, {
        config: config({ admin: { path: '/__guard/stats', secretBinding: 'ADMIN_SECRET' } }),
        env: { REVOCATION_SECRET: SECRET, ADMIN_SECRET: SECRET },
      });
      const t = await token(k.ed);
      for (const spelling of [
        '/__guard/%72evocations',
        '/__GUARD/revocations',
        '/__guard/revocations;x',
        '//__guard/revocations',
        '/__guard/st%61ts',
        '/__guard/Stats',
      ]) {
        const res = await g.send(spelling, { headers: { authorization: `Bearer ${t}`, 'x-guard-admin': SECRET } });
        expect(res.status, spelling).toBe(404);
      }
      expect(g.net.calls.filter((c) => c.url.toLowerCase().includes('__guard'))).toHaveLength(0);
      // The exact spellings are the endpoints; a path beside them is an ordinary route.
      expect((await g.send(PATH, { headers: { 'x-guard-admin': SECRET } })).status).toBe(200);
      expect((await g.send('/__guard/revocations/x', bearer(t))).status).toBe(200);
      // Nor does the secret travel with an ordinary request.
      expect((await g.send('/x', { headers: { authorization: `Bearer ${t}`, 'x-guard-admin': SECRET } })).status).toBe(
        200,
      );
      expect(g.net.calls.some((c) => c.headers.has('x-guard-admin'))).toBe(false);
    },
  );

  it(
    'revocation_admin_json_tricks: __proto__, duplicate members, huge or fractional numbers, a method override ' +
      'and other methods change nothing they should not',
    async () => {
      const g = await makeGuard(k, { config: config(), env: { REVOCATION_SECRET: SECRET } });
      const now = nowSeconds();
      const raw = (body: string, init: RequestInit = {}) =>
        g.send(PATH, {
          method: 'POST',
          body,
          ...init,
          headers: { 'x-guard-admin': SECRET, ...(init.headers as Record<string, string> | undefined) },
        });
      for (const body of [
        `{"__proto__": {"jti": "p"}, "exp": ${now + 60}}`,
        `{"jti": "a", "exp": ${now + 60}, "__proto__": {}}`,
        `{"jti": "a", "exp": 1e400}`,
        `{"jti": "a", "exp": ${now + 60}.5}`,
        `{"jti": "a", "exp": 9007199254740993}`,
        `{"jti": "", "exp": ${now + 60}}`,
        `{"jti": "\\ud800", "exp": ${now + 60}}`,
        `{"iss": "${ISS}", "sub": "x", "issuedBefore": ${now}, "exp": ${now + 60}, "jti": "a"}`,
        `[{"jti": "a", "exp": ${now + 60}}]`,
        'null',
        '',
      ]) {
        expect((await raw(body)).status, body).toBe(400);
      }
      // Duplicate members: JSON's last one wins, the entry is still exactly one well-formed entry.
      const dup = await raw(`{"jti": "first", "jti": "second", "exp": ${now + 60}}`);
      expect(dup.status).toBe(200);
      const list = (await (await g.send(PATH, { headers: { 'x-guard-admin': SECRET } })).json()) as {
        entries: { jti?: string }[];
      };
      expect(list.entries.map((e) => e.jti)).toEqual(['second']);
      // A method override header is no way to reach another method; HEAD, PUT, DELETE are 405 and write nothing.
      expect((await raw(`{"jti": "m", "exp": ${now + 60}}`, { method: 'PUT' })).status).toBe(405);
      expect((await g.send(PATH, { method: 'HEAD', headers: { 'x-guard-admin': SECRET } })).status).toBe(405);
      expect(
        (await g.send(PATH, { method: 'GET', headers: { 'x-guard-admin': SECRET, 'x-http-method-override': 'POST' } }))
          .status,
      ).toBe(200);
      expect(
        ((await (await g.send(PATH, { headers: { 'x-guard-admin': SECRET } })).json()) as { entries: unknown[] })
          .entries,
      ).toHaveLength(1);
    },
  );
});
