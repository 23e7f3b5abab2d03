// The rehearsal at startup (src/worker/rehearsal.ts): once warm has built the guard, one
// synthetic request runs through a Guard of its own. It must leave no trace on the real
// guard (counters, rejection log, log, analytics, L1), never reach the origin, never
// break the guard when it fails, and leave every real answer as it would have been.
import { afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { GuardDeps, GuardEnv } from '../../src/worker/build.js';
import type { GuardConfigInput } from '../../src/worker/config-input.js';
import { embeddedGuard, type EmbeddedGuard } from '../../src/worker/embed.js';
import type { EmbeddableGuard } from '../../src/worker/embeddable-guard.js';
import { Guard } from '../../src/worker/guard.js';
import { rehearse } from '../../src/worker/rehearsal.js';
import { selfTest } from '../../src/worker/self-test.js';
import { startGuard } from '../../src/worker/start.js';
import { b64u } from '../shared/jwt-mint.js';
import { AUD, CACHE_KEY, ISS, TestCtx, assertionKeyJson, baseConfig, bearer, demoKeys, jwksOf, kv, mockNet, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

const ADMIN = { path: '/_guard/counters', secretBinding: 'ADMIN_SECRET' };
const ADMIN_SECRET = 'an-admin-secret-of-some-length';
const issuer = () => ({ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: { keys: [{ ...k.ed.publicJwk, kid: k.ed.kid }] } });
/** The echo origin, claims forwarded, the admin endpoint: the rehearsal is accepted and forwarded. */
const accepted = (): GuardConfigInput => ({ issuers: [issuer()], origin: 'builtin:echo', forwardClaims: { sub: 'X-Auth-Sub' }, admin: ADMIN });
/** A rule the rehearsal's token cannot meet: it is refused after its verify (a rejection log line if it were shared). */
const refused = (): GuardConfigInput => ({ issuers: [issuer()], origin: 'builtin:echo', rules: [{ pathPrefix: '/', scopes: ['admin'] }] } as unknown as GuardConfigInput);

interface Points {
  points: unknown[];
  writeDataPoint(p: unknown): void;
}
const analytics = (): Points => {
  const points: unknown[] = [];
  return { points, writeDataPoint: (p) => void points.push(p) };
};

/** A guard warmed as the Worker entries warm theirs, with the Guard it built and how often its parts were read. */
interface Warmed {
  embedded: EmbeddedGuard;
  built: () => EmbeddableGuard;
  partsReads: () => number;
  lines: string[];
}

function warmed(config: GuardConfigInput, env: GuardEnv, deps: GuardDeps = {}, failParts = false): Warmed {
  const lines: string[] = [];
  let built: EmbeddableGuard | undefined;
  let reads = 0;
  const embedded = embeddedGuard(
    async (e, d) => {
      const g = await startGuard(e, d, config);
      // Counts every read of guard.parts from here on: nothing but the rehearsal reads them before a request.
      const real = g.parts;
      let failed = !failParts;
      Object.defineProperty(g, 'parts', {
        get() {
          reads++;
          if (!failed) {
            failed = true;
            throw new Error('a rehearsal that fails');
          }
          return real;
        },
      });
      built = g;
      return g;
    },
    { log: (l) => void lines.push(l), ...deps },
    () => selfTest(),
  );
  embedded.warm(env);
  return { embedded, built: () => built!, partsReads: () => reads, lines };
}

/** Polls every 5 ms until `done()`, failing after 5 s with what did not happen (a loaded machine is slow, never wrong). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const start = Date.now(); !done(); ) {
    if (Date.now() - start > 5000) throw new Error(`${what}: not within 5 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Watches Guard.handle: before any real request only a rehearsal calls it (the rehearsal's own
 * Guard), so `rehearsed(n)` resolves once `n` rehearsals have been answered.
 */
function rehearsals(): { rehearsed: (n?: number) => Promise<void>; handle: MockInstance } {
  const handle = vi.spyOn(Guard.prototype, 'handle');
  return {
    handle,
    async rehearsed(n = 1) {
      await until(() => handle.mock.results.length >= n, `${n} rehearsal(s) started`);
      await Promise.all(handle.mock.results.slice(0, n).map((r) => r.value as Promise<Response>));
    },
  };
}

/** Polls until `value()` has not changed for 50 ms (at most 5 s): trailing work of a build with nothing to wait on. */
async function quiet(value: () => number): Promise<void> {
  let last = value();
  let still = Date.now();
  await until(() => {
    const v = value();
    if (v !== last) [last, still] = [v, Date.now()];
    return Date.now() - still >= 50;
  }, 'quiet');
}

const req = (path: string, init: RequestInit = {}): Request => new Request(`https://api.example.com${path}`, init);

describe('the rehearsal at startup', () => {
  it.each([
    ['accepted and forwarded', accepted],
    ['refused by a rule after its verify', refused],
  ])('rehearsal_leaves_no_trace (%s): counters, rejection log, log, analytics and L1 of the real guard unchanged after warm', async (_, config) => {
    const env = { ADMIN_SECRET, ANALYTICS: analytics() };
    const r = rehearsals();
    const w = warmed(config(), env);
    await r.rehearsed(); // answered: whatever trace it could leave is there now
    expect(w.partsReads()).toBeGreaterThan(0);
    const g = w.built();
    expect(g.parts.counters.snapshot()).toEqual({});
    expect(g.tiers.l1Size).toBe(0);
    expect(env.ANALYTICS.points).toEqual([]);
    // The log (rejection log lines included): what building the same guard alone writes, nothing more.
    const alone: string[] = [];
    await startGuard(env, { log: (l) => void alone.push(l) }, config());
    expect(w.lines).toEqual(alone);
  });

  it('rehearsal_never_reaches_origin: neither a URL origin nor a service binding is called at startup', async () => {
    const calls: string[] = [];
    const recording = (r: RequestInfo | URL): Promise<Response> => {
      calls.push(new Request(r).url);
      return Promise.resolve(new Response('from the origin'));
    };
    const r = rehearsals();
    const url = warmed({ issuers: [issuer()], origin: 'https://origin.example.com' }, {}, { fetch: recording as typeof fetch });
    const service = { fetch: (r: Request) => recording(r) };
    const bound = warmed({ issuers: [issuer()], origin: { service: 'API' } } as GuardConfigInput, { API: service });
    await r.rehearsed(2);
    expect(url.partsReads()).toBeGreaterThan(0);
    expect(bound.partsReads()).toBeGreaterThan(0);
    expect(calls).toEqual([]);
    // The recorders are the ones a real request reaches: one call each.
    const t = await token(k.ed);
    expect((await url.embedded.fetch(req('/orders', bearer(t)), {}, new TestCtx())).status).toBe(200);
    expect((await bound.embedded.fetch(req('/orders', bearer(t)), { API: service }, new TestCtx())).status).toBe(200);
    expect(calls).toEqual(['https://origin.example.com/orders', 'https://service-binding.invalid/orders']);
  });

  it('rehearsal_failure_keeps_guard_serving: a rehearsal that throws is dropped; the guard serves, nothing logged', async () => {
    const env = { ADMIN_SECRET };
    const w = warmed(accepted(), env, {}, true);
    // The rehearsal ran, and its first read threw (rehearse catches it in the same turn).
    await until(() => w.partsReads() > 0, 'the rehearsal read the parts');
    const before = w.lines.length;
    const res = await w.embedded.fetch(req('/orders', bearer(await token(k.ed))), { ...env }, new TestCtx());
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text()).headers['x-auth-sub']).toBe('alice');
    expect(w.lines.slice(0, before).filter((l) => !l.includes('"notice"'))).toEqual([]);
  });

  it('rehearsal_never_rejects: a guard whose parts cannot be read still settles the rehearsal (warm hands it to nothing that would catch)', async () => {
    const unreadable = Object.defineProperty({}, 'parts', {
      get() {
        throw new Error('parts cannot be read');
      },
    }) as Guard;
    await expect(rehearse(unreadable)).resolves.toBeUndefined();
  });

  it('rehearsal_touches_no_binding: with KV tiers, origin assertion, DPoP (replay object, nonces), revocation, admin, CORS, a cookie source, forwardPayload and a service origin, warm calls no binding, fetch or signing key beyond what building alone does', async () => {
    const raw = baseConfig(k, {
      issuers: [{ ...(baseConfig(k).issuers as object[])[0], dpop: 'allowed' }, (baseConfig(k).issuers as object[])[1]],
      tokenSources: [{ cookie: 'session' }, { header: 'Authorization' }],
      origin: { service: 'API' },
      admin: ADMIN,
      cors: { allowOrigins: ['https://app.example.com'] },
      forwardPayload: 'X-Auth-Payload',
      originAssertion: { keyBinding: 'ASSERTION_KEY' },
      cache: { verify: 'all', jwks: true },
      dpop: { replay: { durableObject: 'DPOP_REPLAY' }, nonceSecretBinding: 'DPOP_NONCE' },
      revocation: { path: '/__guard/revocations', secretBinding: 'REVOCATION_SECRET', store: { durableObject: 'REVOCATIONS' } },
    }) as unknown as GuardConfigInput;
    const calls: string[] = [];
    const record = <T extends object>(name: string, target: T): T =>
      new Proxy(target, {
        get(t, member) {
          const v = Reflect.get(t, member) as unknown;
          return typeof v === 'function' ? (...args: unknown[]) => (calls.push(`${name}.${String(member)}`), (v as (...a: unknown[]) => unknown).apply(t, args)) : v;
        },
      });
    const stub = { fetch: () => Promise.reject(new Error('not for the rehearsal')) };
    const namespace = () => ({ idFromName: () => 'id', idFromString: () => 'id', get: () => stub });
    const env = {
      CACHE_KEY,
      HS_KEY: b64u(k.hs.secret!),
      ADMIN_SECRET,
      ASSERTION_KEY: await assertionKeyJson(),
      DPOP_NONCE: 'a-dpop-nonce-secret-of-some-length-0123456789',
      REVOCATION_SECRET: 'a-revocation-secret-of-some-length',
      API: record('API', { fetch: (_: Request) => Promise.resolve(new Response('from the service')) }),
      VERIFY_CACHE: record('VERIFY_CACHE', kv.VERIFY_CACHE),
      JWKS_CACHE: record('JWKS_CACHE', kv.JWKS_CACHE),
      DPOP_REPLAY: record('DPOP_REPLAY', namespace()),
      REVOCATIONS: record('REVOCATIONS', namespace()),
      ANALYTICS: record('ANALYTICS', analytics()),
    };
    const net = mockNet(jwksOf(k.ed, k.rs));
    const fetch = (r: RequestInfo | URL, i?: RequestInit) => (calls.push(`fetch ${new Request(r).url}`), net.fetch(r, i));
    const sign = crypto.subtle.sign.bind(crypto.subtle);
    crypto.subtle.sign = (...a: Parameters<typeof sign>) => (calls.push('subtle.sign'), sign(...a));
    try {
      await startGuard(env, { fetch, log: () => undefined }, raw);
      await quiet(() => calls.length);
      const alone = calls.splice(0);
      const r = rehearsals();
      const w = warmed(raw, env, { fetch });
      await r.rehearsed();
      await quiet(() => calls.length);
      expect(w.partsReads()).toBeGreaterThan(0);
      expect(calls).toEqual(alone);
    } finally {
      crypto.subtle.sign = sign;
    }
  });

  it('rehearsal_leaves_answers_unchanged: status, headers and body of real requests as from a guard built without it', async () => {
    const env = { ADMIN_SECRET };
    const t = await token(k.ed);
    const requests = (): Request[] => [
      req('/orders?x=1', { headers: { ...bearer(t).headers, 'x-client': 'a' } }),
      req('/orders'),
      req('/orders', bearer(`${t.slice(0, -2)}AA`)),
      req(ADMIN.path, { headers: { 'x-guard-admin': ADMIN_SECRET } }),
    ];
    // Built in the first request, without a warm: no rehearsal.
    const plain = embeddedGuard((e, d) => startGuard(e, d, accepted()), { log: () => undefined }, () => selfTest());
    const plainEnv = { ...env }; // one env object: one guard for every request
    const r = rehearsals();
    const rehearsed = warmed(accepted(), env);
    await r.rehearsed();
    vi.restoreAllMocks(); // the requests below call handle too
    expect(rehearsed.partsReads()).toBeGreaterThan(0);
    for (const [a, b] of requests().map((r, i) => [r, requests()[i]!] as const)) {
      const x = await plain.fetch(a, plainEnv, new TestCtx());
      const y = await rehearsed.embedded.fetch(b, { ...env }, new TestCtx());
      expect(await answer(y)).toEqual(await answer(x));
    }
  });
});

/** A response as a client reads it; the Server-Timing durations and the counters' start time vary between any two guards. */
async function answer(res: Response): Promise<unknown> {
  const headers: [string, string][] = [];
  res.headers.forEach((v, n) => void headers.push([n, n === 'server-timing' ? v.replace(/dur=[\d.]+/, 'dur=') : v]));
  const body = await res.text();
  return { status: res.status, headers, body: body.replace(/"since":(?:null|"[^"]*")/, '"since":_') };
}
