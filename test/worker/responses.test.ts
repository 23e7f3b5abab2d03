// Every response class of the guard with its exact status, headers and body,
// token sources, several issuers, rules, and identity-header spoofing.
import { beforeAll, describe, expect, it } from 'vitest';
import { AUD, HS_ISS, ISS, bearer, demoKeys, forged, makeGuard, token, type Keys, type Made } from './harness.js';

let k: Keys;
let g: Made;
beforeAll(async () => {
  k = await demoKeys();
  g = await makeGuard(k);
});

async function body(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

describe('accepted requests', () => {
  it('EdDSA token in Authorization: forwarded to the origin with identity headers and Server-Timing', async () => {
    const t = await token(k.ed, { sub: 'alice', scope: 'read write' });
    const res = await g.send('/orders?x=1', bearer(t));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-origin')).toBe('yes');
    expect(res.headers.get('server-timing')).toMatch(/^edgejwt;desc="(verify|l1)";dur=\d+\.\d{3}$/);
    const b = await body(res);
    expect(b.path).toBe('/orders');
    const h = b.headers as Record<string, string>;
    expect(h['x-auth-sub']).toBe('alice');
    expect(h['x-auth-scope']).toBe('read write');
    // The credential still reaches the origin (it may want it); the guard adds, never removes it.
    expect(h.authorization).toBe(`Bearer ${t}`);
    const last = g.net.calls.at(-1)!;
    expect(last.url).toBe('https://origin.example.com/orders?x=1');
  });

  it('the same token again is an L1 hit', async () => {
    const t = await token(k.ed, { sub: 'l1-user' });
    expect((await g.send('/a', bearer(t))).headers.get('server-timing')).toContain('desc="verify"');
    expect((await g.send('/a', bearer(t))).headers.get('server-timing')).toContain('desc="l1"');
  });

  it('RS256 from the same issuer, HS256 from a second issuer (secretBinding), side by side', async () => {
    const rs = await token(k.rs, { sub: 'rs-user' });
    const hs = await token(k.hs, { sub: 'hs-user' });
    const r1 = await body(await g.send('/x', bearer(rs)));
    const r2 = await body(await g.send('/x', bearer(hs)));
    expect((r1.headers as Record<string, string>)['x-auth-sub']).toBe('rs-user');
    expect((r2.headers as Record<string, string>)['x-auth-sub']).toBe('hs-user');
  });

  it('cookie source is used when no Authorization header is sent', async () => {
    const t = await token(k.ed, { sub: 'cookie-user' });
    const res = await g.send('/x', { headers: { cookie: `theme=dark; session=${t}; other=1` } });
    expect(res.status).toBe(200);
    expect(((await body(res)).headers as Record<string, string>)['x-auth-sub']).toBe('cookie-user');
  });

  it('the first configured source wins: a bad header token is not rescued by a good cookie', async () => {
    const good = await token(k.ed);
    const res = await g.send('/x', { headers: { authorization: 'Bearer abc.def.ghi', cookie: `session=${good}` } });
    expect(res.status).toBe(401);
  });

  it('a custom header source reads the bare token', async () => {
    const c = await makeGuard(k, {
      config: { ...(await import('./harness.js')).baseConfig(k), tokenSources: [{ header: 'X-Token' }] },
    });
    const t = await token(k.ed);
    expect((await c.send('/x', { headers: { 'x-token': t } })).status).toBe(200);
    expect((await c.send('/x', { headers: { 'x-token': `Bearer ${t}` } })).status).toBe(200);
    expect((await c.send('/x', bearer(t))).status).toBe(401); // Authorization is not a source here
  });
});

describe('401 without error: no token', () => {
  for (const [name, init] of [
    ['no header', {}],
    ['Basic scheme', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }],
    ['empty cookie', { headers: { cookie: 'session=' } }],
  ] as [string, RequestInit][]) {
    it(name, async () => {
      const res = await g.send('/private', init);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="edgejwt"');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await body(res)).toEqual({ error: 'unauthorized', error_description: 'An access token is required' });
      expect(g.net.calls.some((c) => c.url.endsWith('/private'))).toBe(false);
    });
  }
});

describe('400 invalid_request: a Bearer credential that is not one token', () => {
  for (const value of ['Bearer ', 'Bearer a b', 'Bearer a"b']) {
    it(JSON.stringify(value), async () => {
      const res = await g.send('/private', { headers: { authorization: value } });
      expect(res.status).toBe(400);
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="edgejwt", error="invalid_request", error_description="The access token is malformed"',
      );
      expect(await body(res)).toEqual({ error: 'invalid_request', error_description: 'The access token is malformed' });
    });
  }
});

describe('401 invalid_token', () => {
  const cases: [string, () => Promise<string>, string][] = [
    ['forged signature', () => forged('EdDSA'), 'The access token is invalid'],
    ['forged RS256', () => forged('RS256'), 'The access token is invalid'],
    ['expired', () => token(k.ed, { exp: Math.floor(Date.now() / 1000) - 10 }), 'The access token expired'],
    [
      'not yet valid',
      () => token(k.ed, { nbf: Math.floor(Date.now() / 1000) + 600 }),
      'The access token is not valid yet',
    ],
    ['wrong audience', () => token(k.ed, { aud: 'other-api' }), 'The access token is invalid'],
    ['unknown issuer', () => token(k.ed, { iss: 'https://evil.example.com' }), 'The access token is invalid'],
    ['HS token claiming the JWKS issuer', () => token(k.hs, { iss: ISS }), 'The access token is invalid'],
    [
      'alg none',
      async () =>
        `${btoa('{"alg":"none"}').replace(/=+$/, '')}.` +
        `${btoa(JSON.stringify({ iss: ISS, aud: AUD, exp: 9e9 })).replace(/=+$/, '')}.`,
      'The access token is invalid',
    ],
    ['garbage', async () => 'not-a-jwt', 'The access token is invalid'],
    ['no exp', () => token(k.ed, { exp: undefined }), 'The access token is invalid'],
  ];
  for (const [name, make, description] of cases) {
    it(name, async () => {
      const t = await make();
      const res = await g.send('/private', bearer(t));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="edgejwt", error="invalid_token", error_description="${description}"`,
      );
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: 'invalid_token', error_description: description });
      // Never echo the token, nor any segment of it.
      for (const seg of t.split('.').filter((s) => s.length > 8))
        expect(text + res.headers.get('www-authenticate')).not.toContain(seg);
      expect(res.headers.get('server-timing')).toMatch(/^edgejwt;desc="fail";dur=/);
    });
  }

  it('the realm is quoted with escapes', async () => {
    const c = await makeGuard(k, {
      config: { ...(await import('./harness.js')).baseConfig(k), realm: 'api gw (prod)' },
    });
    const res = await c.send('/x', bearer('a.b.c'));
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="api gw (prod)", error="invalid_token", error_description="The access token is invalid"',
    );
  });

  it('a claim that cannot travel in a header is refused, not truncated', async () => {
    const t = await token(k.ed, { sub: 'eve\r\nX-Auth-Scope: admin' });
    const res = await g.send('/x', bearer(t));
    expect(res.status).toBe(401);
    expect(g.guard.counters.get('rejected:claim_not_forwardable')).toBeGreaterThan(0);
  });
});

describe('403 insufficient_scope', () => {
  it('missing scope', async () => {
    const t = await token(k.ed, { scope: 'read', tenant: 'acme' });
    const res = await g.send('/admin/users', bearer(t));
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="edgejwt", error="insufficient_scope", error_description="The access token lacks a ' +
        'required scope", scope="admin"',
    );
    expect(await body(res)).toEqual({
      error: 'insufficient_scope',
      error_description: 'The access token lacks a required scope',
    });
  });

  it('scope present but claim value wrong', async () => {
    const t = await token(k.ed, { scope: 'admin', tenant: 'other' });
    const res = await g.send('/admin/users', bearer(t));
    expect(res.status).toBe(403);
    expect((await body(res)).error_description).toBe('The access token lacks a required claim');
  });

  it('scope from scp (array) and claim from an array both satisfy the rule', async () => {
    const t = await token(k.ed, { scope: undefined, scp: ['read', 'admin'], tenant: ['beta', 'acme'] });
    expect((await g.send('/admin/users', bearer(t))).status).toBe(200);
  });

  it('a percent-encoded path still falls under the rule', async () => {
    const t = await token(k.ed, { scope: 'read', tenant: 'acme' });
    expect((await g.send('/%61dmin/users', bearer(t))).status).toBe(403);
  });

  it('rules only apply under their prefix', async () => {
    const t = await token(k.ed, { scope: 'read' });
    expect((await g.send('/administrator', bearer(t))).status).toBe(200);
  });
});

describe('identity header spoofing is stripped on every path', () => {
  const spoof = { 'x-auth-sub': 'root', 'X-Auth-Scope': 'admin' };
  const seen = async (res: Response): Promise<Record<string, string>> =>
    (await body(res)).headers as Record<string, string>;

  it('public path', async () => {
    const res = await g.send('/health', { headers: spoof });
    expect(res.status).toBe(200);
    const h = await seen(res);
    expect(h['x-auth-sub']).toBeUndefined();
    expect(h['x-auth-scope']).toBeUndefined();
  });

  it('public prefix path', async () => {
    const h = await seen(await g.send('/static/app.js', { headers: spoof }));
    expect(h['x-auth-sub']).toBeUndefined();
  });

  it('authenticated path: the verified value replaces the spoofed one', async () => {
    const t = await token(k.ed, { sub: 'alice', scope: undefined });
    const h = await seen(await g.send('/x', { headers: { ...spoof, authorization: `Bearer ${t}` } }));
    expect(h['x-auth-sub']).toBe('alice');
    // The token has no scope: the client's copy must not survive.
    expect(h['x-auth-scope']).toBeUndefined();
  });

  it('rejected requests never reach the origin', async () => {
    const before = g.net.calls.length;
    await g.send('/x', { headers: spoof });
    await g.send('/x', { headers: { ...spoof, authorization: 'Bearer x.y.z' } });
    expect(g.net.calls.length).toBe(before);
  });

  it('a path that is public only in one spelling is not public', async () => {
    // Raw it is under /static/; decoded and normalised (as an origin may) it is /admin/x.
    // An encoded slash is refused outright (paths.escapedSlashes defaults to "reject").
    expect((await g.send('/static/..%2Fadmin/x')).status).toBe(400);
    // `;` hides nothing either: Spring reads `/static/..;/admin/x` as `/admin/x`.
    expect((await g.send('/static/..;/admin/x')).status).toBe(400);
    expect((await g.send('/static/x;y')).status).toBe(200);
    expect((await g.send('/static/ok%2Ejs')).status).toBe(200);
  });
});

describe('issuers', () => {
  it('HS issuer rejects a token signed with another secret', async () => {
    const res = await g.send('/x', bearer(await forged('HS256', { iss: HS_ISS })));
    expect(res.status).toBe(401);
  });
});

describe('origin unreachable', () => {
  it('502 after a good token, 502 on a public path; never a pass-through of the error', async () => {
    const net = (await import('./harness.js')).mockNet((await import('./harness.js')).jwksOf(k.ed, k.rs));
    const inner = net.fetch;
    net.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new Request(input, init).url;
      if (url.startsWith('https://origin.example.com')) throw new TypeError('connect ECONNREFUSED');
      return inner(input, init);
    }) as typeof fetch;
    const c = await makeGuard(k, { net });
    for (const res of [await c.send('/x', bearer(await token(k.ed))), await c.send('/health')]) {
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: 'bad_gateway', error_description: 'The origin could not be reached' });
    }
    expect(c.guard.counters.get('origin_error')).toBe(2);
  });
});
