// The revocation stage and its admin endpoint (src/worker/stages/revocation/revocation-stage.ts,
// revocation-admin.ts) in the whole guard, with the in-isolate store (and a broken
// Durable Object binding for the store-down case). The same through the real
// RevocationList object: test/worker-do/guard-revocation.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REVOCATION_BODY } from '../../../../src/worker/stages/revocation-admin/revocation-admin.js';
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
} from '../../harness.js';

const PATH = '/__guard/revocations';
const SECRET = 'revocation-admin-secret-0123456789';
let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

function config(
  extra: Record<string, unknown> = {},
  revocation: Record<string, unknown> = {},
): Record<string, unknown> {
  const c = baseConfig(k, {
    revocation: { path: PATH, secretBinding: 'REVOCATION_SECRET', store: 'isolate', ...revocation },
    ...extra,
  });
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
  return c;
}

const admin = (body?: unknown, init: RequestInit = {}, secret = SECRET): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  ...init,
  headers: { 'x-guard-admin': secret, ...(init.headers as Record<string, string> | undefined) },
});

async function guard(
  opts: { config?: Record<string, unknown>; env?: Record<string, unknown>; now?: () => number } = {},
) {
  return makeGuard(k, {
    config: opts.config ?? config(),
    env: { REVOCATION_SECRET: SECRET, ...opts.env },
    ...(opts.now === undefined ? {} : { deps: { now: opts.now } }),
  });
}

describe('revocation: the stage on every verified request', () => {
  it(
    'revocation_by_jti: a token whose jti is revoked is refused (401 invalid_token, code revoked); another jti ' +
      'passes',
    async () => {
      const g = await guard();
      const t = await token(k.ed, { jti: 'token-1' });
      const other = await token(k.ed, { jti: 'token-2' });
      expect((await g.send('/x', bearer(t))).status).toBe(200);
      const added = await g.send(PATH, admin({ jti: 'token-1', exp: nowSeconds() + 3600 }));
      expect(added.status).toBe(200);
      expect(await added.json()).toEqual({ version: 1 });
      const refused = await g.send('/x', bearer(t));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(
        /error="invalid_token", error_description="The access token was revoked"/,
      );
      expect(g.logs.some((l) => l.includes('"code":"revoked"'))).toBe(true);
      expect(g.guard.counters.get('rejected:revoked')).toBe(1);
      expect((await g.send('/x', bearer(other))).status).toBe(200);
    },
  );

  it(
    'revocation_by_subject_issued_before: every token of iss+sub issued before the cut-off is refused; later ' +
      'ones and other subjects pass',
    async () => {
      const g = await guard();
      const now = nowSeconds();
      const old = await token(k.ed, { sub: 'mallory', iat: now - 100 });
      const fresh = await token(k.ed, { sub: 'mallory', iat: now + 5 });
      const otherSub = await token(k.ed, { sub: 'alice', iat: now - 100 });
      const res = await g.send(PATH, admin({ iss: ISS, sub: 'mallory', issuedBefore: now, exp: now + 7200 }));
      expect(res.status).toBe(200);
      expect((await g.send('/x', bearer(old))).status).toBe(401);
      expect((await g.send('/x', bearer(fresh))).status).toBe(200);
      expect((await g.send('/x', bearer(otherSub))).status).toBe(200);
    },
  );

  it(
    'revoked_token_refused_from_l1: a token this isolate ' + 'verified (and serves from L1) is refused once revoked',
    async () => {
      const g = await guard();
      const t = await token(k.ed, { jti: 'l1-token' });
      expect((await g.send('/x', bearer(t))).status).toBe(200);
      const hit = await g.send('/x', bearer(t));
      expect(hit.headers.get('server-timing')).toContain('desc="l1"');
      expect((await g.send(PATH, admin({ jti: 'l1-token', exp: nowSeconds() + 600 }))).status).toBe(200);
      const refused = await g.send('/x', bearer(t));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('server-timing')).toContain('desc="l1"');
    },
  );

  it('revoked_token_refused_from_l2: a verdict cached in KV before the revocation is refused after it', async () => {
    const c = config({ cache: { verify: 'all', verifyAdmission: 'always' } });
    const a = await guard({ config: c, env: { CACHE_KEY } });
    const t = await token(k.rs, { jti: 'l2-token' });
    expect((await a.send('/x', bearer(t))).status).toBe(200);
    // A second isolate: empty L1, the same KV. The isolate store is its own, so it is told here.
    const b = await guard({ config: c, env: { CACHE_KEY } });
    expect((await b.send(PATH, admin({ jti: 'l2-token', exp: nowSeconds() + 600 }))).status).toBe(200);
    const refused = await b.send('/x', bearer(t));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('server-timing')).toContain('desc="l2"');
    expect(b.guard.counters.get('l2_hit')).toBe(1);
  });

  it('revocation_entries_lapse_at_exp: an entry stops applying (and leaves the list) once its exp passes', async () => {
    let clock = Date.now();
    const g = await guard({ now: () => clock });
    const t = await token(k.ed, { jti: 'short' });
    expect((await g.send(PATH, admin({ jti: 'short', exp: Math.floor(clock / 1000) + 30 }))).status).toBe(200);
    expect((await g.send('/x', bearer(t))).status).toBe(401);
    clock += 31_000;
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    expect(await (await g.send(PATH, admin())).json()).toMatchObject({ entries: [] });
  });

  it(
    'revocation_fail_closed_store_down: a store that cannot be reached answers 503 for verified requests, ' +
      'never a pass; the admin endpoint 503 too',
    async () => {
      const down = { idFromName: () => 'id', get: () => ({ fetch: () => Promise.reject(new Error('unreachable')) }) };
      const g = await guard({
        config: config({}, { store: { durableObject: 'REVOCATIONS' } }),
        env: { REVOCATIONS: down },
      });
      const t = await token(k.ed);
      const res = await g.send('/x', bearer(t));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(g.logs.some((l) => l.includes('"code":"revocation_unavailable"'))).toBe(true);
      expect((await g.send('/health')).status).toBe(200);
      expect((await g.send(PATH, admin())).status).toBe(503);
      expect((await g.send(PATH, admin({ jti: 'a', exp: nowSeconds() + 60 }))).status).toBe(503);
    },
  );

  it(
    'revocation_binding_missing_is_config_error: a store binding that is not there (or the secret) makes every ' +
      'request a 500',
    async () => {
      const g = await guard({ config: config({}, { store: { durableObject: 'NOPE' } }) }).catch((e: unknown) => e);
      expect(String(g)).toMatch(/revocation\.store\.durableObject/);
      const noSecret = await makeGuard(k, { config: config() }).catch((e: unknown) => e);
      expect(String(noSecret)).toMatch(/revocation\.secretBinding/);
    },
  );
});

describe('revocation: the admin endpoint', () => {
  it(
    'revocation_admin_requires_secret: a missing or wrong X-Guard-Admin (any length) is 401 and changes ' +
      'nothing; answered before any token check',
    async () => {
      const g = await guard();
      const t = await token(k.ed, { jti: 'kept' });
      const bodies = new Set<string>();
      for (const secret of ['', 'wrong', SECRET.slice(0, -1) + 'X', SECRET + 'X']) {
        const res = await g.send(PATH, admin({ jti: 'kept', exp: nowSeconds() + 60 }, {}, secret));
        expect(res.status).toBe(401);
        bodies.add(await res.text());
      }
      const bare = await g.send(PATH, {
        method: 'POST',
        body: JSON.stringify({ jti: 'kept', exp: nowSeconds() + 60 }),
      });
      expect(bare.status).toBe(401);
      bodies.add(await bare.text());
      expect(bodies.size).toBe(1);
      expect((await g.send('/x', bearer(t))).status).toBe(200);
      // Never forwarded: the origin saw none of the admin requests.
      expect(g.net.calls.filter((c) => c.url.includes(PATH))).toHaveLength(0);
    },
  );

  it('revocation_admin_body_limits: over 4 KiB is 413, by declared length or by the bytes read', async () => {
    const g = await guard();
    const big = JSON.stringify({ jti: 'x'.repeat(MAX_REVOCATION_BODY), exp: nowSeconds() + 60 });
    expect((await g.send(PATH, admin(big))).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const chunked = await g.send(
      PATH,
      admin(undefined, { method: 'POST', body: stream, duplex: 'half' } as RequestInit),
    );
    expect(chunked.status).toBe(413);
    expect(await (await g.send(PATH, admin())).json()).toMatchObject({ version: 0, entries: [] });
  });

  it(
    'revocation_admin_malformed_json: not JSON -> 400 invalid_json; a wrong entry -> 400 invalid_entry with a ' +
      'fixed reason',
    async () => {
      const g = await guard();
      const bad = await g.send(PATH, admin('{"jti": '));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: 'invalid_json' });
      const now = nowSeconds();
      for (const [entry, reason] of [
        [{ jti: 'a' }, 'exp must be whole seconds'],
        [{ jti: 'a', exp: now - 1 }, 'exp is in the past'],
        [{ jti: 'a', exp: now + 60, extra: 1 }, 'members must be {jti, exp} or {iss, sub, issuedBefore, exp}'],
        [{ iss: ISS, sub: 'a', issuedBefore: 'yesterday', exp: now + 60 }, 'issuedBefore must be whole seconds'],
        [[1, 2], 'not an object'],
      ] as const) {
        const res = await g.send(PATH, admin(entry));
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: 'invalid_entry', reason });
      }
      expect((await g.send(PATH, admin(undefined, { method: 'DELETE' }))).status).toBe(405);
    },
  );

  it('revocation_admin_get_lists_entries_in_force: GET lists both kinds with their versions', async () => {
    const g = await guard();
    const now = nowSeconds();
    await g.send(PATH, admin({ jti: 'a', exp: now + 60 }));
    await g.send(PATH, admin({ iss: ISS, sub: 'b', issuedBefore: now, exp: now + 60 }));
    const res = await g.send(PATH, admin());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      version: 2,
      entries: [
        { jti: 'a', exp: now + 60, version: 1 },
        { iss: ISS, sub: 'b', issuedBefore: now, exp: now + 60, version: 2 },
      ],
    });
  });
});
