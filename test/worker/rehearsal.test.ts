// The rehearsal at startup (src/worker/rehearsal.ts): once warm has built the guard, one
// synthetic request runs through a Guard of its own. It must leave no trace on the real
// guard (counters, rejection log, log, analytics, L1), never reach the origin, never
// break the guard when it fails, and leave every real answer as it would have been.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardDeps, GuardEnv } from '../../src/worker/build.js';
import type { GuardConfigInput } from '../../src/worker/config-input.js';
import { embeddedGuard, type EmbeddedGuard } from '../../src/worker/embed.js';
import type { EmbeddableGuard } from '../../src/worker/embeddable-guard.js';
import { selfTest } from '../../src/worker/self-test.js';
import { startGuard } from '../../src/worker/start.js';
import { AUD, ISS, TestCtx, bearer, demoKeys, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

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

/** Until the module scope's work settles: the build, the self-test and the rehearsal wait on nothing outside the isolate. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));
const req = (path: string, init: RequestInit = {}): Request => new Request(`https://api.example.com${path}`, init);

describe('the rehearsal at startup', () => {
  it.each([
    ['accepted and forwarded', accepted],
    ['refused by a rule after its verify', refused],
  ])('rehearsal_leaves_no_trace (%s): counters, rejection log, log, analytics and L1 of the real guard unchanged after warm', async (_, config) => {
    const env = { ADMIN_SECRET, ANALYTICS: analytics() };
    const w = warmed(config(), env);
    await settle();
    expect(w.partsReads()).toBeGreaterThan(0); // the rehearsal ran
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
    const url = warmed({ issuers: [issuer()], origin: 'https://origin.example.com' }, {}, { fetch: recording as typeof fetch });
    const service = { fetch: (r: Request) => recording(r) };
    const bound = warmed({ issuers: [issuer()], origin: { service: 'API' } } as GuardConfigInput, { API: service });
    await settle();
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
    await settle();
    expect(w.partsReads()).toBeGreaterThan(0); // the rehearsal ran, and its first read threw
    const before = w.lines.length;
    const res = await w.embedded.fetch(req('/orders', bearer(await token(k.ed))), { ...env }, new TestCtx());
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text()).headers['x-auth-sub']).toBe('alice');
    expect(w.lines.slice(0, before).filter((l) => !l.includes('"notice"'))).toEqual([]);
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
    const rehearsed = warmed(accepted(), env);
    await settle();
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
