// GUARD_CONFIG checking: each bad setting is named; the Worker entry answers 500
// with a log line naming it, never a pass; a good config in either JSON form works.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import worker from '../../src/worker/index.js';
import { ConfigError, parseConfig } from '../../src/worker/config.js';
import { problemsOf } from '../../src/worker/config-problems.js';
import { CACHE_KEY, ISS, JWKS_URL, TestCtx, baseConfig, demoKeys, jwksOf, kv, token, type Keys } from './harness.js';
import { b64u } from '../shared/jwt-mint.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

function settingOf(raw: unknown): string {
  try {
    parseConfig(raw);
    return 'OK';
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return e.setting;
  }
}

const issuer = { issuer: ISS, audience: 'api', algorithms: ['EdDSA'], jwksUrl: JWKS_URL };

describe('parseConfig names the bad setting', () => {
  const cases: [string, unknown, string][] = [
    ['unset', undefined, 'GUARD_CONFIG'],
    ['not JSON', '{issuers:', 'GUARD_CONFIG'],
    ['an array', '[]', 'GUARD_CONFIG'],
    ['unknown top-level key (typo)', { issuers: [issuer], publicPath: ['/x'] }, 'publicPath'],
    ['no issuers', { issuers: [] }, 'issuers'],
    ['issuer missing audience', { issuers: [{ ...issuer, audience: undefined }] }, 'issuers[0].audience'],
    ['unsupported alg', { issuers: [{ ...issuer, algorithms: ['none'] }] }, 'issuers[0].algorithms[0]'],
    ['two key sources', { issuers: [{ ...issuer, secretBinding: 'K' }] }, 'issuers[0]'],
    ['HS with a JWKS', { issuers: [{ ...issuer, algorithms: ['HS256'] }] }, 'issuers[0].algorithms'],
    [
      'RS with a secret',
      { issuers: [{ issuer: ISS, audience: 'api', algorithms: ['RS256'], secretBinding: 'K' }] },
      'issuers[0].algorithms',
    ],
    ['http JWKS url', { issuers: [{ ...issuer, jwksUrl: 'http://id.example.com/jwks' }] }, 'issuers[0].jwksUrl'],
    [
      'empty inline jwks',
      { issuers: [{ issuer: ISS, audience: 'api', algorithms: ['EdDSA'], jwks: { keys: [] } }] },
      'issuers[0].jwks',
    ],
    ['duplicate issuer', { issuers: [issuer, issuer] }, 'issuers[1].issuer'],
    ['public path without slash', { issuers: [issuer], publicPaths: ['health'] }, 'publicPaths[0]'],
    ['rule without requirements', { issuers: [issuer], rules: [{ pathPrefix: '/a' }] }, 'rules[0]'],
    ['scope with a quote', { issuers: [issuer], rules: [{ pathPrefix: '/a', scopes: ['a"b'] }] }, 'rules[0].scopes[0]'],
    [
      'token source with two names',
      { issuers: [issuer], tokenSources: [{ header: 'A', cookie: 'b' }] },
      'tokenSources[0]',
    ],
    ['forward into Authorization', { issuers: [issuer], forwardClaims: { sub: 'Authorization' } }, 'forwardClaims.sub'],
    ['bad origin', { issuers: [issuer], origin: 'ftp://x' }, 'origin'],
    ['clock tolerance negative', { issuers: [issuer], clockTolerance: -1 }, 'clockTolerance'],
    ['verify TTL under KV minimum', { issuers: [issuer], cache: { verifyTtl: 30 } }, 'cache.verifyTtl'],
    ['verify cache alg not allowed', { issuers: [issuer], cache: { verify: ['RS256'] } }, 'cache.verify[0]'],
    ['realm with a quote', { issuers: [issuer], realm: 'a"b' }, 'realm'],
    ['mtls not a mode', { issuers: [{ ...issuer, mtls: true }] }, 'issuers[0].mtls'],
    [
      'revocation without a store',
      { issuers: [issuer], revocation: { path: '/r', secretBinding: 'S' } },
      'revocation.store',
    ],
    [
      'revocation store unknown key',
      { issuers: [issuer], revocation: { path: '/r', secretBinding: 'S', store: { durableObject: 'R', name: 'x' } } },
      'revocation.store.name',
    ],
    [
      'revocation path relative',
      { issuers: [issuer], revocation: { path: 'r', secretBinding: 'S', store: 'isolate' } },
      'revocation.path',
    ],
    [
      'revocation path is the admin path',
      {
        issuers: [issuer],
        admin: { path: '/a', secretBinding: 'A' },
        revocation: { path: '/a', secretBinding: 'S', store: 'isolate' },
      },
      'revocation.path',
    ],
    [
      'revocation maxStaleMs under refreshMs',
      {
        issuers: [issuer],
        revocation: { path: '/r', secretBinding: 'S', store: 'isolate', refreshMs: 20_000, maxStaleMs: 10_000 },
      },
      'revocation.maxStaleMs',
    ],
    [
      'revocation refreshMs out of range',
      { issuers: [issuer], revocation: { path: '/r', secretBinding: 'S', store: 'isolate', refreshMs: 10 } },
      'revocation.refreshMs',
    ],
  ];
  for (const [name, raw, setting] of cases) it(name, () => expect(settingOf(raw)).toBe(setting));

  it('accepts the object and the JSON string form alike', () => {
    const c = baseConfig(k);
    expect(settingOf(c)).toBe('OK');
    expect(parseConfig(JSON.stringify(c))).toEqual(parseConfig(c));
  });

  it('messages carry no configuration values', () => {
    try {
      parseConfig({ issuers: [{ ...issuer, jwksUrl: 'http://secret-host.example/jwks' }] });
    } catch (e) {
      expect((e as Error).message).not.toContain('secret-host');
    }
  });
});

/** Every setting parseConfig names for `raw`, in the order it checks them ([] when it holds). */
function settingsOf(raw: unknown): string[] {
  try {
    parseConfig(raw);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return problemsOf(e).map((p) => p.setting);
  }
}

describe('parse_config_collects_every_problem', () => {
  it(
    'parse_config_collects_every_problem: every section, issuer and rule is checked; every unknown key of an ' +
      'object is named',
    () => {
      const raw = {
        issuers: [
          { ...issuer, algorithms: ['RS265'] },
          { ...issuer, issuer: 'https://other.example.com', audiance: 'api', algoritms: [] },
        ],
        rules: [
          { pathPrefix: '/a/', scopes: ['a'] },
          { pathPrefix: '/b/*', scopes: ['b'] },
          { pathPrefix: '/c/', auth: 'maybe' },
        ],
        publicPaths: ['health', '/ok', '/x/**'],
        realms: 'api',
        cache: { verifyTtl: 30 },
        paths: { forward: 'raw' },
      };
      expect(settingsOf(raw)).toEqual([
        'realms',
        'issuers[0].algorithms[0]',
        'issuers[1].audiance',
        'issuers[1].algoritms',
        'publicPaths[0]',
        'publicPaths[2]',
        'rules[1].pathPrefix',
        'rules[2].auth',
        'cache.verifyTtl',
        'paths.forward',
      ]);
      // As one ConfigError it is its first problem: what the guard logs and names.
      let first: ConfigError | undefined;
      try {
        parseConfig(raw);
      } catch (e) {
        first = e as ConfigError;
      }
      expect(first).toBeInstanceOf(ConfigError);
      expect(first!.setting).toBe('realms');
      expect(first!.message).toBe('GUARD_CONFIG realms: unknown setting');
      // A string config is checked the same way.
      expect(settingsOf(JSON.stringify(raw))).toEqual(settingsOf(raw));
      expect(settingsOf({ issuers: [issuer], realm: 'ok' })).toEqual([]);
    },
  );

  it(
    'checks_against_issuers_with_a_problem_are_not_reported: a rule, cache.verify and dpop are not blamed for ' +
      'a broken issuer',
    () => {
      const other = 'https://other.example.com';
      const broken = { ...issuer, issuer: other, algorithms: ['ES256'], audience: undefined, dpop: 'required' };
      const raw = {
        issuers: [issuer, broken],
        rules: [{ pathPrefix: '/a/', issuers: other }],
        cache: { verify: ['ES256'] },
        dpop: { replay: 'isolate' },
      };
      expect(settingsOf(raw)).toEqual(['issuers[1].audience']);
      // With that issuer fixed the config holds; with its dpop removed the section is refused, as before.
      expect(settingsOf({ ...raw, issuers: [issuer, { ...broken, audience: 'api' }] })).toEqual([]);
      expect(settingsOf({ ...raw, issuers: [issuer, { ...broken, dpop: undefined }] })).toEqual([
        'issuers[1].audience',
        'dpop',
      ]);
    },
  );
});

describe('config_problems_named_in_one_order', () => {
  it(
    'config_problems_named_in_one_order: each optional ' + 'section is checked in its place among the core settings',
    () => {
      // One problem in every top-level setting: each section (read by its stage) is named right after the core check
      // its stage reads it after (resource before the issuers, whose default audience is its id).
      const raw = {
        resource: { id: 'not a url' },
        issuers: [{ ...issuer, algorithms: ['RS265'] }],
        publicPaths: ['health'],
        rules: [{ pathPrefix: '/c/', auth: 'maybe' }],
        tokenSources: [],
        forwardClaims: { sub: 'bad header' },
        origin: 'ftp://x',
        realm: 'a"b',
        jwks: { timeoutMs: 1 },
        admin: { path: 'x', secretBinding: 'S' },
        cors: { allowOrigins: 'nope' },
        clockTolerance: -1,
        cache: { verifyTtl: 30 },
        originAssertion: { keyBinding: '' },
        paths: { forward: 'raw' },
        dpop: { replay: 'nowhere' },
        revocation: { path: 'y', secretBinding: 'R', store: 'isolate' },
      };
      expect(settingsOf(raw)).toEqual([
        'resource.id',
        'issuers[0].algorithms[0]',
        'publicPaths[0]',
        'rules[0].auth',
        'tokenSources',
        'forwardClaims.sub',
        'origin',
        'realm',
        'admin.path',
        'cors.allowOrigins[0]',
        'clockTolerance',
        'cache.verifyTtl',
        'jwks.timeoutMs',
        'originAssertion.keyBinding',
        'paths.forward',
        'dpop',
        'revocation.path',
      ]);
    },
  );
});

describe('options_duration_integer', () => {
  it('options_duration_integer: a fractional ms or seconds setting of the guard is refused, naming it', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ jwks: { timeoutMs: 1.5 } }, 'jwks.timeoutMs'],
      [{ jwks: { cooldownMs: 30_000.5 } }, 'jwks.cooldownMs'],
      [{ cache: { kvTimeoutMs: 50.5 } }, 'cache.kvTimeoutMs'],
      [{ cache: { verifyTtl: 60.5 } }, 'cache.verifyTtl'],
      [{ clockTolerance: 0.5 }, 'clockTolerance'],
    ];
    for (const [extra, setting] of cases) expect(settingOf({ issuers: [issuer], ...extra }), setting).toBe(setting);
    expect(settingOf({ issuers: [issuer], jwks: { timeoutMs: 1500, cooldownMs: 30_000 }, clockTolerance: 5 })).toBe(
      'OK',
    );
  });
});

describe('the Worker entry', () => {
  async function call(
    env: Record<string, unknown>,
    path = '/x',
    init?: RequestInit,
  ): Promise<{ res: Response; logs: string[] }> {
    const logs: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((l: string) => void logs.push(l));
    const res = await worker.fetch(new Request(`https://api.example.com${path}`, init), env, new TestCtx());
    return { res, logs };
  }

  const inline = (): Record<string, unknown> => ({
    issuers: [{ issuer: ISS, audience: 'api', algorithms: ['EdDSA'], jwks: jwksOf(k.ed) }],
    publicPaths: ['/health'],
    origin: 'builtin:echo',
  });

  it('no GUARD_CONFIG: 500 on every path (public ones too), log names it', async () => {
    for (const p of ['/x', '/health']) {
      const { res, logs } = await call({}, p);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        error: 'server_error',
        error_description: 'The gateway is misconfigured or failed',
      });
      expect(JSON.parse(logs[0]!)).toMatchObject({ edgejwt: 'config_error', setting: 'GUARD_CONFIG' });
    }
  });

  it(
    'several_problems_answer_500_naming_the_first: the ' + 'log line is the one the first problem alone gives',
    async () => {
      const one = { ...inline(), realms: 'x' };
      const several = { ...one, rules: [{ pathPrefix: '/a*' }], cache: { verifyTtl: 1 } };
      const alone = await call({ GUARD_CONFIG: one });
      vi.restoreAllMocks();
      const { res, logs } = await call({ GUARD_CONFIG: several });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        error: 'server_error',
        error_description: 'The gateway is misconfigured or failed',
      });
      expect(logs).toEqual(alone.logs);
      expect(JSON.parse(logs[0]!)).toEqual({
        edgejwt: 'config_error',
        setting: 'realms',
        message: 'GUARD_CONFIG realms: unknown setting',
      });
    },
  );

  it('inline_key_set_without_usable_key_fails_at_start', async () => {
    // Each set holds keys, none of which the issuer's algorithms can use: every token would be a 401.
    const ed = jwksOf(k.ed).keys[0]!;
    const rs = jwksOf(k.rs).keys[0]!;
    const sets: [string, string[], Record<string, unknown>[]][] = [
      ['an RSA key for EdDSA', ['EdDSA'], [rs]],
      ['an Ed25519 key for RS256 and PS256', ['RS256', 'PS256'], [ed]],
      ['a key for encryption', ['EdDSA'], [{ ...ed, use: 'enc' }]],
      ['key_ops without verify', ['EdDSA'], [{ ...ed, use: undefined, key_ops: ['sign'] }]],
      ['a key bound to another algorithm', ['RS256'], [{ ...rs, alg: 'PS256' }]],
      ['an X25519 key', ['EdDSA'], [{ ...ed, crv: 'X25519' }]],
      ['a P-384 key for ES256', ['ES256'], [{ kty: 'EC', crv: 'P-384', x: 'AA', y: 'AA' }]],
      ['kty of the wrong type', ['EdDSA'], [{ ...ed, kty: ['OKP'] }]],
    ];
    for (const [name, algorithms, keys] of sets) {
      const cfg = {
        issuers: [{ issuer: ISS, audience: 'api', algorithms, jwks: { keys } }],
        publicPaths: ['/health'],
        origin: 'builtin:echo',
      };
      expect(settingOf(cfg), name).toBe('issuers[0].jwks');
      for (const p of ['/x', '/health']) {
        const { res, logs } = await call({ GUARD_CONFIG: cfg }, p);
        expect(res.status, `${name} ${p}`).toBe(500);
        expect(JSON.parse(logs[0]!)).toMatchObject({ edgejwt: 'config_error', setting: 'issuers[0].jwks' });
        vi.restoreAllMocks();
      }
    }
    // One usable key among unusable ones is enough (issuers publish odd keys beside good ones).
    const mixed = { issuers: [{ issuer: ISS, audience: 'api', algorithms: ['EdDSA'], jwks: { keys: [rs, ed] } }] };
    expect(settingOf(mixed)).toBe('OK');
  });

  it('a missing HS secret is named', async () => {
    const cfg = { issuers: [{ issuer: ISS, audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' }] };
    const { res, logs } = await call({ GUARD_CONFIG: cfg });
    expect(res.status).toBe(500);
    expect(JSON.parse(logs[0]!).setting).toBe('issuers[0].secretBinding');
  });

  it('an HS secret shorter than the algorithm needs fails at start-up, not per token', async () => {
    const cfg = { issuers: [{ issuer: ISS, audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' }] };
    const { res, logs } = await call({ GUARD_CONFIG: cfg, HS_KEY: b64u(new Uint8Array(16)) });
    expect(res.status).toBe(500);
    expect(JSON.parse(logs[0]!).setting).toMatch(/^issuers/);
  });

  it('a malformed CACHE_KEY is named', async () => {
    const { res, logs } = await call({ GUARD_CONFIG: inline(), CACHE_KEY: 'short' });
    expect(res.status).toBe(500);
    expect(JSON.parse(logs[0]!).setting).toBe('CACHE_KEY');
  });

  it('admin path without its secret binding is named', async () => {
    const { res, logs } = await call({
      GUARD_CONFIG: { ...inline(), admin: { path: '/__guard', secretBinding: 'ADMIN_SECRET' } },
    });
    expect(res.status).toBe(500);
    expect(JSON.parse(logs[0]!).setting).toBe('admin.secretBinding');
  });

  it(
    "log lines wait for the response (ctx.waitUntil): an isolate's first console.log never delays its first " +
      'request',
    async () => {
      await new Promise((r) => setTimeout(r, 20));
      const logs: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((l: string) => void logs.push(l));
      const ctx = new TestCtx();
      const res = await worker.fetch(new Request('https://api.example.com/hello'), { GUARD_CONFIG: inline() }, ctx);
      expect(res.status).toBe(401);
      expect(logs).toHaveLength(0);
      expect(ctx.pending.length).toBeGreaterThan(0);
      await ctx.settle();
      expect(logs.filter((l) => l.includes('CACHE_KEY is not set'))).toHaveLength(1);
    },
  );

  it('a good config as an object var: echo origin shows the identity, CACHE_KEY unset is logged once', async () => {
    // Lines the earlier tests' guards deferred past their responses land first.
    await new Promise((r) => setTimeout(r, 20));
    const logs: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((l: string) => void logs.push(l));
    const env = { GUARD_CONFIG: inline() };
    const t = await token(k.ed, { sub: 'entry-user' });
    const ctx = new TestCtx();
    const ok = await worker.fetch(
      new Request('https://api.example.com/hello', {
        headers: { authorization: `Bearer ${t}`, 'x-auth-sub': 'spoof' },
      }),
      env,
      ctx,
    );
    // The notice is written after the response (ctx.waitUntil), not before it.
    expect(logs.filter((l) => l.includes('CACHE_KEY is not set'))).toHaveLength(0);
    await ctx.settle();
    expect(logs.filter((l) => l.includes('CACHE_KEY is not set'))).toHaveLength(1);
    expect(ok.status).toBe(200);
    const echoed = (await ok.json()) as { headers: Record<string, string>; path: string };
    expect(echoed.path).toBe('/hello');
    expect(echoed.headers['x-auth-sub']).toBe('entry-user');
    expect(echoed.headers.authorization).toBe('(present, not shown)');
    const no = await worker.fetch(new Request('https://api.example.com/hello'), env, ctx);
    expect(no.status).toBe(401);
    await ctx.settle();
    expect(logs.filter((l) => l.includes('CACHE_KEY is not set'))).toHaveLength(1);
  });

  it('the admin path serves counters only with its secret', async () => {
    const secret = 'admin-secret-0123456789';
    const env = {
      GUARD_CONFIG: { ...inline(), admin: { path: '/__guard/counters', secretBinding: 'ADMIN_SECRET' } },
      ADMIN_SECRET: secret,
      CACHE_KEY,
      VERIFY_CACHE: kv.VERIFY_CACHE,
      JWKS_CACHE: kv.JWKS_CACHE,
    };
    await worker.fetch(new Request('https://api.example.com/x'), env, new TestCtx());
    await worker.fetch(
      new Request('https://api.example.com/x', { headers: { authorization: 'Bearer a.b.c' } }),
      env,
      new TestCtx(),
    );
    const denied = await worker.fetch(
      new Request('https://api.example.com/__guard/counters', { headers: { 'x-guard-admin': 'wrong' } }),
      env,
      new TestCtx(),
    );
    expect(denied.status).toBe(401);
    const res = await worker.fetch(
      new Request('https://api.example.com/__guard/counters', { headers: { 'x-guard-admin': secret } }),
      env,
      new TestCtx(),
    );
    expect(res.status).toBe(200);
    const { counters } = (await res.json()) as { counters: Record<string, number> };
    expect(counters.missing_token).toBe(1);
    expect(counters['rejected:ERR_JWT_MALFORMED']).toBe(1);
    expect(counters.requests).toBe(2);
  });
});

describe('counters in the logs', () => {
  it('one JSON line at most once a minute, with the outcome counts', async () => {
    const { makeGuard, bearer } = await import('./harness.js');
    let now = Date.now();
    const g = await makeGuard(k, { deps: { now: () => now } });
    await g.send('/x');
    await g.send('/x', bearer(await token(k.ed)));
    expect(g.logs.filter((l) => l.includes('"counters"'))).toHaveLength(0);
    now += 61_000;
    await g.send('/x', bearer('a.b.c'));
    now += 1_000;
    await g.send('/x');
    const lines = g.logs.filter((l) => l.includes('"counters"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      edgejwt: 'counters',
      requests: 3,
      missing_token: 1,
      accepted: 1,
      'rejected:ERR_JWT_MALFORMED': 1,
    });
  });
});
