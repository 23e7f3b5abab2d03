// The guard's revocation stage over the real RevocationList Durable Object (REVOCATIONS
// in test/worker-do/wrangler.toml): two guards stand for two isolates sharing the one
// list and one KV verify cache. The in-isolate store's cases: test/worker/stages/revocation/revocation.test.ts.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { mint } from '../shared/jwt-mint.js';
import {
  CACHE_KEY,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  makeGuard,
  nowSeconds,
  token,
  ISS,
  type Keys,
} from '../worker/harness.js';

const PATH = '/__guard/revocations';
const SECRET = 'revocation-admin-secret-0123456789';
let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

function config(): Record<string, unknown> {
  const c = baseConfig(k, {
    cache: { verify: 'all', verifyAdmission: 'always' },
    revocation: {
      path: PATH,
      secretBinding: 'REVOCATION_SECRET',
      store: { durableObject: 'REVOCATIONS' },
      refreshMs: 1000,
    },
  });
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
  return c;
}

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'x-guard-admin': SECRET },
});

async function isolate(c: Record<string, unknown>, now?: () => number) {
  return makeGuard(k, {
    config: c,
    env: { CACHE_KEY, REVOCATION_SECRET: SECRET, REVOCATIONS: env.REVOCATIONS },
    ...(now === undefined ? {} : { deps: { now } }),
  });
}

describe('revocation through the RevocationList Durable Object', () => {
  it(
    'revoked_token_refused_from_l1 and revoked_token_refused_from_l2 (durable object): verified into L1 and KV ' +
      'before, refused in both isolates after',
    async () => {
      const c = config();
      const a = await isolate(c);
      const b = await isolate(c);
      const t = await token(k.rs, { jti: 'do-token' });
      expect((await a.send('/x', bearer(t))).status).toBe(200);
      expect((await a.send('/x', bearer(t))).headers.get('server-timing')).toContain('desc="l1"');
      const added = await a.send(PATH, post({ jti: 'do-token', exp: nowSeconds() + 600 }));
      expect(added.status).toBe(200);
      expect(await added.json()).toEqual({ version: expect.any(Number) });
      const fromL1 = await a.send('/x', bearer(t));
      expect(fromL1.status).toBe(401);
      expect(fromL1.headers.get('server-timing')).toContain('desc="l1"');
      // Isolate b never saw the token: KV has it, and b's first copy of the list comes with its first request.
      const fromL2 = await b.send('/x', bearer(t));
      expect(fromL2.status).toBe(401);
      expect(fromL2.headers.get('server-timing')).toContain('desc="l2"');
    },
  );

  it(
    'revocation_learned_within_refresh_ms: another isolate learns of a revocation once its copy is refreshMs ' +
      'old, not later',
    async () => {
      const c = config();
      let clock = Date.now();
      const a = await isolate(c);
      const b = await isolate(c, () => clock);
      const t = await token(k.ed, { sub: 'bob', iat: nowSeconds() - 10 });
      expect((await b.send('/x', bearer(t))).status).toBe(200);
      expect(
        (await a.send(PATH, post({ iss: ISS, sub: 'bob', issuedBefore: nowSeconds(), exp: nowSeconds() + 3600 })))
          .status,
      ).toBe(200);
      // b's copy is younger than refreshMs: the documented window in which it does not know yet.
      expect((await b.send('/x', bearer(t))).status).toBe(200);
      clock += 1000;
      expect((await b.send('/x', bearer(t))).status).toBe(401);
    },
  );

  it('revocation_admin_lists_the_durable_object: GET through any isolate shows what the object holds', async () => {
    const c = config();
    const a = await isolate(c);
    const b = await isolate(c);
    const exp = nowSeconds() + 600;
    expect((await a.send(PATH, post({ jti: 'listed', exp }))).status).toBe(200);
    const res = await b.send(PATH, { headers: { 'x-guard-admin': SECRET } });
    expect(res.status).toBe(200);
    // The one object is shared by every test in this file: look for this test's entry.
    const list = (await res.json()) as { version: number; entries: Record<string, unknown>[] };
    expect(list.entries).toContainEqual({ jti: 'listed', exp, version: list.version });
    expect((await b.send(PATH, { headers: { 'x-guard-admin': 'nope' } })).status).toBe(401);
  });
});

describe('revocation in a guard that outlives requests', () => {
  it(
    'revocation_durable_object_across_requests: the guard built in one request reaches the object from later ' +
      'ones (no stub kept from the request that built it)',
    async () => {
      const secret = Uint8Array.from(atob((env.ENTRY_HS_KEY as string).replace(/-/g, '+').replace(/_/g, '/')), (c) =>
        c.charCodeAt(0),
      );
      const privateKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      const jti = `entry-${crypto.randomUUID()}`;
      const t = await mint(
        { alg: 'HS256', privateKey },
        { iss: 'https://hs.entry.test', aud: 'api', sub: 'eve', jti, iat: nowSeconds(), exp: nowSeconds() + 600 },
      );
      const send = (path: string, init?: RequestInit) => exports.default.fetch(`https://guard.entry.test${path}`, init);
      const admin = { 'x-guard-admin': env.ENTRY_REVOCATION_SECRET as string };
      // Each call is a request of its own to the Worker; the guard is built by the first.
      expect((await send('/guarded/x', bearer(t))).status).toBe(200);
      expect(
        (await send(PATH, { method: 'POST', headers: admin, body: JSON.stringify({ jti, exp: nowSeconds() + 600 }) }))
          .status,
      ).toBe(200);
      expect((await send('/guarded/x', bearer(t))).status).toBe(401);
      expect((await send(PATH, { headers: admin })).status).toBe(200);
    },
  );
});
