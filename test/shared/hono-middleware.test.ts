// edgejwt/hono end to end through a real Hono app: where the token comes from,
// the payload on the context, RFC 6750 answers, and the JwtError kept as cause.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isJwtError } from '../../src/errors.js';
import { jwtAuth, JwtAuthError, type JwtAuthEnv } from '../../src/hono/index.js';
import { fromCookie } from '../../src/bearer/token.js';
import { claims, generate, mint, nowDate } from './jwt-mint.js';

async function setup(extra: Record<string, unknown> = {}) {
  const pair = await generate('HS256');
  const auth = jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, audience: 'api', cookie: 'session', realm: 'api "v1"', ...extra });
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
    expect(challenge).toBe('Bearer realm="api \\"v1\\"", error="invalid_token", error_description="The access token is invalid"');
    const body = await res.text();
    for (const text of [challenge, body]) for (const part of token.split('.')) expect(text.includes(part)).toBe(false);
    expect(isJwtError(causes[0], 'ERR_JWS_SIGNATURE_INVALID')).toBe(true);
  });

  it('expired token says so; wrong audience does not say why', async () => {
    const { pair, call } = await setup();
    const expired = await call({ authorization: `Bearer ${await mint(pair, claims({ exp: nowDate.getTime() / 1000 - 60 }))}` });
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
    expect((await call({ authorization: `Bearer ${await mint(pair, claims({ scope: 'write read' }))}` })).status).toBe(200);
    expect((await call({ authorization: `Bearer ${await mint(pair, claims({ scp: ['read', 'write'] }))}` })).status).toBe(200);
  });

  it('without onError, Hono answers from getResponse', async () => {
    const pair = await generate('HS256');
    const app = new Hono();
    app.use(jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate }));
    app.get('/', (c) => c.text('ok'));
    expect((await app.request('http://x/')).status).toBe(401);
    expect((await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(pair, claims())}` } })).status).toBe(200);
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
    expect((await app.request('http://x/me', { headers: auth }, { SECRET: (await generate('HS256')).secret!, AUD: 'api' })).status).toBe(401);
    expect(built).toBe(2);
  });

  it('optional: no token goes on anonymously; a bad or malformed one is still refused', async () => {
    const { pair } = await setup();
    const app = new Hono<JwtAuthEnv>();
    app.use(jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, audience: 'api', optional: true }));
    app.get('/', (c) => c.json({ sub: c.get('jwtPayload')?.sub ?? null }));
    expect(await (await app.request('http://x/')).json()).toEqual({ sub: null });
    expect(await (await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(pair, claims())}` } })).json()).toEqual({ sub: 'user-1' });
    const other = await generate('HS256');
    expect((await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(other, claims())}` } })).status).toBe(401);
    expect((await app.request('http://x/', { headers: { authorization: 'Bearer a b' } })).status).toBe(400);
    expect((await app.request('http://x/', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })).status).toBe(200);
  });

  it('Retry-After of a 503 is the retryAfter option (default 30, the key set cooldown)', async () => {
    const { createRemoteJWKSet } = await import('../../src/keys/remote.js');
    const jwks = createRemoteJWKSet('https://down.example.com/jwks', { fetch: (async () => new Response('down', { status: 500 })) as typeof fetch });
    for (const [extra, want] of [[{}, '30'], [{ retryAfter: 7 }, '7']] as const) {
      const app = new Hono();
      app.use(jwtAuth({ algorithms: ['RS256'], jwks, audience: 'api', ...extra }));
      app.get('/', (c) => c.text('ok'));
      const pair = await generate('RS256');
      const res = await app.request('http://x/', { headers: { authorization: `Bearer ${await mint(pair, claims(), { kid: 'k' })}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(want);
    }
  });
});

