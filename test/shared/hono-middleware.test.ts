// edgejwt/hono end to end through a real Hono app: where the token comes from,
// the payload on the context, RFC 6750 answers, and the JwtError kept as cause.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { JwtError, isJwtError } from '../../src/errors.js';
import { jwtAuth, JwtAuthError, type JwtAuthEnv } from '../../src/hono/index.js';
import { createVerifier, type Verifier } from '../../src/verifier.js';
import { fromCookie } from '../../src/bearer/token.js';
import { claims, generate, mint, nowDate } from './jwt-mint.js';

/** Run `fn` with console.error collected (the middleware's default log), restored after. */
async function withConsoleError<T>(fn: () => T | Promise<T>): Promise<{ result: T; lines: unknown[] }> {
  const original = console.error;
  const lines: unknown[] = [];
  console.error = (...args: unknown[]) => void lines.push(args[0]);
  try {
    return { result: await fn(), lines };
  } finally {
    console.error = original;
  }
}

async function setup(extra: Record<string, unknown> = {}) {
  const pair = await generate('HS256');
  const auth = jwtAuth({
    algorithms: ['HS256'],
    key: pair.secret!,
    currentDate: nowDate,
    audience: 'api',
    cookie: 'session',
    realm: 'api "v1"',
    ...extra,
  });
  const app = new Hono<JwtAuthEnv>();
  const causes: unknown[] = [];
  app.onError((err, c) => {
    causes.push(err.cause);
    return err instanceof JwtAuthError ? err.getResponse() : c.text('boom', 500);
  });
  app.use('/api/*', auth);
  app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub, alg: c.get('jwtHeader').alg }));
  const call = (headers: Record<string, string> = {}) => app.request('http://x/api/me', { headers });
  return { pair, app, call, causes };
}

describe('edgejwt/hono', () => {
  it('valid bearer token: payload and header on the context', async () => {
    const { pair, call } = await setup();
    const res = await call({ authorization: `Bearer ${await mint(pair, claims())}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'user-1', alg: 'HS256' });
  });

  it('scheme is case-insensitive; the cookie is read when there is no header', async () => {
    const { pair, call } = await setup();
    const token = await mint(pair, claims());
    expect((await call({ authorization: `bearer ${token}` })).status).toBe(200);
    // Browsers drop Cookie from a script-made Request (a forbidden header name): there the
    // middleware must see no token at all; everywhere else it must read the cookie.
    const carriesCookies = new Request('http://x/', { headers: { cookie: 'a=b' } }).headers.get('cookie') === 'a=b';
    const expected = carriesCookies ? 200 : 401;
    expect((await call({ cookie: `a=b; session=${token}; c=d` })).status).toBe(expected);
    expect((await call({ cookie: `session="${token}"` })).status).toBe(expected);
    expect((await call({ authorization: 'Bearer a.b.c', cookie: `session=${token}` })).status).toBe(401);
  });

  it('cookie parsing: first match by exact name, quotes removed, odd values refused', () => {
    expect(fromCookie('sessionx=1; session=a.b.c', 'session')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromCookie('session="a.b.c"', 'session')).toEqual({ kind: 'token', token: 'a.b.c' });
    expect(fromCookie('other=1', 'session')).toEqual({ kind: 'none' });
    expect(fromCookie(null, 'session')).toEqual({ kind: 'none' });
    expect(fromCookie('session=a b', 'session')).toEqual({ kind: 'malformed' });
    // An empty cookie is what a logout leaves: no token (the bearer module's one rule, test/shared/bearer.test.ts).
    expect(fromCookie('session=', 'session')).toEqual({ kind: 'none' });
  });

  it(
    'hono_bound_token_never_bearer: a verified token whose cnf names a key (jkt, x5t#S256, any member) is ' +
      'refused 401 invalid_token; an empty cnf passes',
    async () => {
      const { pair, call } = await setup();
      for (const cnf of [
        { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' },
        { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' },
        { jwk: { kty: 'OKP' } },
        'x',
      ]) {
        const res = await call({ authorization: `Bearer ${await mint(pair, claims({ cnf }))}` });
        expect(res.status, JSON.stringify(cnf)).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(
          /error="invalid_token", error_description="The access token is bound to a key the request did not prove"/,
        );
      }
      expect((await call({ authorization: `Bearer ${await mint(pair, claims({ cnf: {} }))}` })).status).toBe(200);
    },
  );

  it(
    'hono_reads_no_dpop_scheme: a token sent with the DPoP ' + 'scheme is no credential here (no proof is checked)',
    async () => {
      const { pair, call } = await setup();
      const res = await call({ authorization: `DPoP ${await mint(pair, claims())}` });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api \\"v1\\""');
    },
  );

  it('no token: 401 with a bare challenge and no error code', async () => {
    const { call } = await setup();
    const res = await call();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api \\"v1\\""');
    expect((await res.json()).error).toBe('unauthorized');
  });

  it('another scheme (Basic) is no bearer credential: 401 with a bare challenge (RFC 6750 §3.1)', async () => {
    const { call } = await setup();
    const res = await call({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api \\"v1\\""');
  });

  it('malformed Authorization: 400 invalid_request', async () => {
    const { call } = await setup();
    for (const value of ['Bearer', 'Bearer a b', 'Bearer a"b']) {
      const res = await call({ authorization: value });
      expect(res.status, value).toBe(400);
      expect(res.headers.get('www-authenticate'), value).toContain('error="invalid_request"');
    }
  });

  it('bad signature: 401 invalid_token, fixed text, JwtError as cause, token nowhere', async () => {
    const { call, causes } = await setup();
    const other = await generate('HS256');
    const token = await mint(other, claims());
    const res = await call({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toBe(
      'Bearer realm="api \\"v1\\"", error="invalid_token", error_description="The access token is invalid"',
    );
    const body = await res.text();
    for (const text of [challenge, body]) for (const part of token.split('.')) expect(text.includes(part)).toBe(false);
    expect(isJwtError(causes[0], 'ERR_JWS_SIGNATURE_INVALID')).toBe(true);
  });

  it('expired token says so; wrong audience does not say why', async () => {
    const { pair, call } = await setup();
    const expired = await call({
      authorization: `Bearer ${await mint(pair, claims({ exp: nowDate.getTime() / 1000 - 60 }))}`,
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error_description="The access token expired"');
    const aud = await call({ authorization: `Bearer ${await mint(pair, claims({ aud: 'other' }))}` });
    expect(aud.status).toBe(401);
    expect(aud.headers.get('www-authenticate')).toContain('error_description="The access token is invalid"');
  });

  it('missing scope: 403 insufficient_scope naming the scopes', async () => {
    const { pair, call } = await setup({ scopes: ['read', 'write'] });
    const partial = await call({ authorization: `Bearer ${await mint(pair, claims({ scope: 'read' }))}` });
    expect(partial.status).toBe(403);
    expect(partial.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(partial.headers.get('www-authenticate')).toContain('scope="read write"');
    expect((await call({ authorization: `Bearer ${await mint(pair, claims({ scope: 'write read' }))}` })).status).toBe(
      200,
    );
    expect(
      (await call({ authorization: `Bearer ${await mint(pair, claims({ scp: ['read', 'write'] }))}` })).status,
    ).toBe(200);
  });

  it('without onError, Hono answers from getResponse', async () => {
    const pair = await generate('HS256');
    const app = new Hono();
    app.use(jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate }));
    app.get('/', (c) => c.text('ok'));
    expect((await app.request('http://x/')).status).toBe(401);
    expect(
      (await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(pair, claims())}` } })).status,
    ).toBe(200);
  });

  it('bad options fail when the middleware is made, not per request', () => {
    // @ts-expect-error no key: a type error, and from JavaScript a throw at construction
    expect(() => jwtAuth({ algorithms: [] })).toThrow();
  });

  it('config from c.env, built once per env object; typed over the app Env', async () => {
    const pair = await generate('HS256');
    type AppEnv = { Bindings: { SECRET: Uint8Array; AUD: string } } & JwtAuthEnv;
    let built = 0;
    const app = new Hono<AppEnv>();
    app.use(
      '/me',
      jwtAuth<AppEnv>((env) => {
        built++;
        return { algorithms: ['HS256'], key: env.SECRET, audience: env.AUD, currentDate: nowDate };
      }),
    );
    // Typed: c.env.AUD is a string and jwtPayload a JWTPayload, with no casts.
    app.get('/me', (c) => c.json({ sub: c.get('jwtPayload').sub, aud: c.env.AUD.length }));
    const env = { SECRET: pair.secret!, AUD: 'api' };
    const auth = { authorization: `Bearer ${await mint(pair, claims())}` };
    expect((await app.request('http://x/me', { headers: auth }, env)).status).toBe(200);
    expect((await app.request('http://x/me', { headers: auth }, env)).status).toBe(200);
    expect(built).toBe(1);
    // Another env (another deployment's secret) gets its own verifier.
    expect(
      (await app.request('http://x/me', { headers: auth }, { SECRET: (await generate('HS256')).secret!, AUD: 'api' }))
        .status,
    ).toBe(401);
    expect(built).toBe(2);
  });

  it('optional: no token goes on anonymously; a bad or malformed one is still refused', async () => {
    const { pair } = await setup();
    const app = new Hono<JwtAuthEnv>();
    app.use(
      jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, audience: 'api', optional: true }),
    );
    app.get('/', (c) => c.json({ sub: c.get('jwtPayload')?.sub ?? null }));
    expect(await (await app.request('http://x/')).json()).toEqual({ sub: null });
    expect(
      await (
        await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(pair, claims())}` } })
      ).json(),
    ).toEqual({ sub: 'user-1' });
    const other = await generate('HS256');
    expect(
      (await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(other, claims())}` } })).status,
    ).toBe(401);
    expect((await app.request('http://x/', { headers: { authorization: 'Bearer a b' } })).status).toBe(400);
    expect((await app.request('http://x/', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })).status).toBe(200);
  });

  it('Retry-After of a 503 is the retryAfter option (default 30, the key set cooldown)', async () => {
    const { createRemoteJWKSet } = await import('../../src/keys/remote.js');
    const jwks = createRemoteJWKSet('https://down.example.com/jwks', {
      fetch: (async () => new Response('down', { status: 500 })) as typeof fetch,
    });
    for (const [extra, want] of [
      [{}, '30'],
      [{ retryAfter: 7 }, '7'],
    ] as const) {
      const app = new Hono();
      app.use(jwtAuth({ algorithms: ['RS256'], jwks, audience: 'api', log: () => undefined, ...extra }));
      app.get('/', (c) => c.text('ok'));
      const pair = await generate('RS256');
      const res = await app.request('http://x/', {
        headers: { authorization: `Bearer ${await mint(pair, claims(), { kid: 'k' })}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(want);
    }
  });
});

describe('hono_server_fault_is_500_not_401', () => {
  // A verifier standing in for one whose Wasm core cannot start (what the library
  // raises then: ERR_WASM_CORE) or whose backend throws something that is no JwtError.
  const failing = (error: unknown) => ({ verify: () => Promise.reject(error) }) as unknown as Verifier;

  for (const [name, error, code] of [
    [
      'the Wasm core cannot start (ERR_WASM_CORE)',
      new JwtError('ERR_WASM_CORE', { reason: 'the Wasm core could not be compiled or instantiated here' }),
      'ERR_WASM_CORE',
    ],
    ['a backend throws a TypeError', new TypeError('backend exploded'), 'internal_error'],
  ] as const) {
    it(`${name}: 500 server_error, no challenge, one log line naming ${code}, token nowhere`, async () => {
      const pair = await generate('HS256');
      const token = await mint(pair, claims());
      const lines: string[] = [];
      const app = new Hono();
      app.use(jwtAuth({ verifier: failing(error), log: (line) => lines.push(line) }));
      app.get('/', (c) => c.text('ok'));
      const res = await app.request('http://x/', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(500);
      expect(res.headers.get('www-authenticate')).toBeNull();
      const body = await res.text();
      expect(JSON.parse(body).error).toBe('server_error');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).code).toBe(code);
      for (const text of [body, lines[0]!])
        for (const part of token.split('.')) expect(text.includes(part)).toBe(false);
    });
  }

  it('app.onError sees the JwtAuthError (status 500, kind server_error) with the real error as cause', async () => {
    const cause = new JwtError('ERR_WASM_CORE');
    const seen: unknown[] = [];
    const app = new Hono();
    app.onError((err) => (seen.push(err), (err as JwtAuthError).getResponse()));
    app.use(jwtAuth({ verifier: failing(cause), log: () => undefined }));
    app.get('/', (c) => c.text('ok'));
    expect((await app.request('http://x/', { headers: { authorization: 'Bearer a.b.c' } })).status).toBe(500);
    expect(seen[0]).toBeInstanceOf(JwtAuthError);
    expect((seen[0] as JwtAuthError).kind).toBe('server_error');
    expect((seen[0] as JwtAuthError).cause).toBe(cause);
  });

  it('options made from c.env that do not hold: 500 and a log line, not a 401', async () => {
    const app = new Hono();
    // A deployment whose secret binding is missing: the options cannot make a verifier.
    app.use(jwtAuth((env: Record<string, unknown>) => ({ algorithms: ['HS256'], key: env.SECRET as Uint8Array })));
    app.get('/', (c) => c.text('ok'));
    const { result: res, lines } = await withConsoleError(() =>
      app.request('http://x/', { headers: { authorization: 'Bearer a.b.c' } }, {}),
    );
    expect(res.status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(String(lines[0])).code).toBe('ERR_OPTIONS_INVALID');
  });

  it('hono_keys_unavailable_logs_one_line', async () => {
    // The key set cannot be had (the issuer answers 500): a 503, and one line per request naming the code.
    const { createRemoteJWKSet } = await import('../../src/keys/remote.js');
    const down = (async () => new Response('down', { status: 500 })) as typeof fetch;
    const jwks = createRemoteJWKSet('https://down.example.com/jwks', { fetch: down });
    const lines: string[] = [];
    const app = new Hono();
    app.use(jwtAuth({ algorithms: ['RS256'], jwks, audience: 'api', log: (line) => lines.push(line) }));
    app.get('/', (c) => c.text('ok'));
    const pair = await generate('RS256');
    const token = await mint(pair, claims(), { kid: 'k' });
    for (const n of [1, 2]) {
      const res = await app.request('http://x/', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(503);
      expect(lines).toHaveLength(n);
      expect(JSON.parse(lines[n - 1]!)).toEqual({
        edgejwt: 'error',
        status: 503,
        code: 'ERR_JWKS_FETCH_FAILED',
        name: 'JwtError',
      });
    }
    for (const part of token.split('.')) expect(lines.join('\n').includes(part)).toBe(false);
  });

  it('a bad token is still a 401 and logs nothing', async () => {
    const pair = await generate('HS256');
    const lines: string[] = [];
    const app = new Hono();
    app.use(
      jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, log: (line) => lines.push(line) }),
    );
    app.get('/', (c) => c.text('ok'));
    const other = await generate('HS256');
    expect(
      (await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(other, claims())}` } })).status,
    ).toBe(401);
    expect(lines).toEqual([]);
  });
});

describe('hono_options_typed_errors', () => {
  const key = new Uint8Array(32).fill(7);
  const base = { algorithms: ['HS256'], key } as const;
  const settingOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
    } catch (e) {
      return isJwtError(e, 'ERR_OPTIONS_INVALID') ? e.setting : `not ERR_OPTIONS_INVALID: ${String(e)}`;
    }
    return undefined;
  };
  for (const [extra, setting] of [
    [{ optional: 'false' }, 'optional'],
    [{ optional: 1 }, 'optional'],
    [{ scopes: 'admin' }, 'scopes'],
    [{ scopes: ['read write'] }, 'scopes'],
    [{ scopes: [42] }, 'scopes'],
    [{ realm: 42 }, 'realm'],
    [{ cookie: { key: 'session', secret: 'cookie-secret' } }, 'cookie'],
    [{ cookie: { key: 'session', prefixOptions: 'host' } }, 'cookie'],
    [{ cookie: '' }, 'cookie'],
    [{ cookie: 'a=b' }, 'cookie'],
    [{ retryAfter: 0 }, 'retryAfter'],
    [{ retryAfter: 1.5 }, 'retryAfter'],
    [{ retryAfter: '30' }, 'retryAfter'],
    [{ log: 'console' }, 'log'],
    [{ audiance: 'api' }, 'audiance'],
  ] as const) {
    it(`${JSON.stringify(extra)}: ERR_OPTIONS_INVALID naming ${setting}, when the middleware is made`, () => {
      expect(settingOf(() => jwtAuth({ ...base, ...extra } as never))).toBe(setting);
    });
  }

  it('a `verifier` that is none, or verifier options beside one (they would be ignored), are refused', async () => {
    const verifier = createVerifier(base);
    expect(settingOf(() => jwtAuth({ verifier: {} as Verifier }))).toBe('verifier');
    expect(settingOf(() => jwtAuth({ verifier, audience: 'api' } as never))).toBe('audience');
    expect(settingOf(() => jwtAuth({ verifier, cache: false } as never))).toBe('cache');
    // An explicit undefined is "not given", as everywhere in the library.
    expect(
      settingOf(() => jwtAuth({ verifier, audience: undefined, optional: undefined, cookie: undefined } as never)),
    ).toBeUndefined();
    expect(
      settingOf(() =>
        jwtAuth({
          verifier,
          optional: true,
          scopes: ['read'],
          realm: 'api',
          cookie: '__Host-session',
          retryAfter: 5,
          log: () => undefined,
        }),
      ),
    ).toBeUndefined();
  });

  it(
    'lazy options are held to the same rules: a mistyped ' + 'value is a 500 with a log line, never an ignored check',
    async () => {
      const app = new Hono();
      app.use(jwtAuth(() => ({ ...base, optional: 'true' }) as never));
      app.get('/', (c) => c.text('ok'));
      const { result: res, lines } = await withConsoleError(() => app.request('http://x/', {}, {}));
      expect(res.status).toBe(500);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(String(lines[0])).code).toBe('ERR_OPTIONS_INVALID');
    },
  );
});

describe('hono_auth_error_is_http_exception', () => {
  it("an app.onError written for Hono's HTTPException answers edgejwt's refusals as they are", async () => {
    const pair = await generate('HS256');
    const app = new Hono();
    app.onError((err, c) => (err instanceof HTTPException ? err.getResponse() : c.text('boom', 500)));
    app.use(
      jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, realm: 'api', scopes: ['admin'] }),
    );
    app.get('/', (c) => c.text('ok'));
    const none = await app.request('http://x/');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    const bad = await app.request('http://x/', {
      headers: { authorization: `Bearer ${await mint(await generate('HS256'), claims())}` },
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await app.request('http://x/', { headers: { authorization: 'Bearer a b' } })).status).toBe(400);
    expect(
      (await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(pair, claims())}` } })).status,
    ).toBe(403);
  });

  it('getResponse() can be called more than once (a fresh body each time), and status matches it', async () => {
    let caught: unknown;
    const app = new Hono();
    app.onError((err, c) => ((caught = err), c.text('handled', 500)));
    app.use(jwtAuth({ algorithms: ['HS256'], key: new Uint8Array(32).fill(1) }));
    app.get('/', (c) => c.text('ok'));
    await app.request('http://x/');
    const err = caught as HTTPException;
    expect(err).toBeInstanceOf(HTTPException);
    expect(err.status).toBe(401);
    const [a, b] = [err.getResponse(), err.getResponse()];
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(await a.json()).toEqual(await b.json());
  });
});
