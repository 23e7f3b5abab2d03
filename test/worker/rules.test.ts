// The rule model: pathPrefix + methods, auth required|optional|none, per-rule
// issuers/audience/scopes/claims; the first matching rule wins.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/worker/config.js';
import { AUD, HS_ISS, ISS, baseConfig, bearer, demoKeys, forged, makeGuard, token, type Keys, type Made } from './harness.js';

let k: Keys;
let g: Made;
beforeAll(async () => {
  k = await demoKeys();
  g = await makeGuard(k, {
    config: baseConfig(k, {
      rules: [
        { pathPrefix: '/docs/', auth: 'none' },
        { pathPrefix: '/feed/', auth: 'optional' },
        { pathPrefix: '/orders/', methods: ['GET', 'HEAD'], scopes: ['orders:read'] },
        { pathPrefix: '/orders/', methods: ['POST', 'DELETE'], scopes: ['orders:write'] },
        { pathPrefix: '/internal/', issuers: [HS_ISS] },
        { pathPrefix: '/partner/', audience: ['partner-api'] },
        // Shadowed: /admin/users/ is matched by the rule below first only if listed first.
        { pathPrefix: '/admin/', scopes: ['admin'] },
        { pathPrefix: '/admin/users/', auth: 'none' },
      ],
    }),
  });
});

const seen = async (res: Response): Promise<Record<string, string>> => ((await res.json()) as { headers: Record<string, string> }).headers;

describe('auth modes', () => {
  it('none: forwarded without a token, and even a bad token is not checked', async () => {
    expect((await g.send('/docs/a')).status).toBe(200);
    expect((await g.send('/docs/a', bearer('garbage'))).status).toBe(200);
  });

  it('optional, no token: forwarded anonymously with spoofed identity headers stripped', async () => {
    const res = await g.send('/feed/x', { headers: { 'x-auth-sub': 'root' } });
    expect(res.status).toBe(200);
    expect((await seen(res))['x-auth-sub']).toBeUndefined();
  });

  it('optional, good token: forwarded with the identity', async () => {
    const res = await g.send('/feed/x', bearer(await token(k.ed, { sub: 'opt' })));
    expect((await seen(res))['x-auth-sub']).toBe('opt');
  });

  it('optional, present but invalid or malformed token: refused (Envoy allow_missing)', async () => {
    expect((await g.send('/feed/x', bearer(await forged()))).status).toBe(401);
    expect((await g.send('/feed/x', { headers: { authorization: 'Bearer a b' } })).status).toBe(400);
  });
});

describe('methods', () => {
  it('the rule for the method applies', async () => {
    const reader = await token(k.ed, { scope: 'orders:read' });
    expect((await g.send('/orders/1', bearer(reader))).status).toBe(200);
    expect((await g.send('/orders/1', { method: 'POST', ...bearer(reader) })).status).toBe(403);
    const writer = await token(k.ed, { scope: 'orders:write' });
    expect((await g.send('/orders/1', { method: 'POST', ...bearer(writer) })).status).toBe(200);
    const res = await g.send('/orders/1', { method: 'DELETE', ...bearer(reader) });
    expect(res.headers.get('www-authenticate')).toContain('scope="orders:write"');
  });

  it('a rule for GET covers HEAD (origins answer HEAD with their GET handler)', async () => {
    const writer = await token(k.ed, { scope: 'orders:write' });
    expect((await g.send('/orders/1', { method: 'HEAD', ...bearer(writer) })).status).toBe(403);
  });

  it('a method no rule lists falls through to the default: any valid token', async () => {
    expect((await g.send('/orders/1', { method: 'PATCH', ...bearer(await token(k.ed)) })).status).toBe(200);
    expect((await g.send('/orders/1', { method: 'PATCH' })).status).toBe(401);
  });
});

describe('per-rule issuers and audience', () => {
  it('issuers: a valid token of another configured issuer is refused with 401', async () => {
    expect((await g.send('/internal/x', bearer(await token(k.hs)))).status).toBe(200);
    const res = await g.send('/internal/x', bearer(await token(k.ed)));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(g.logs.some((l) => l.includes('"code":"wrong_issuer"') && l.includes('"rule":"rules[4]"'))).toBe(true);
  });

  it('audience: the token must also be for the rule audience', async () => {
    expect((await g.send('/partner/x', bearer(await token(k.ed, { aud: [AUD, 'partner-api'] })))).status).toBe(200);
    expect((await g.send('/partner/x', bearer(await token(k.ed)))).status).toBe(401);
  });
});

describe('first match wins', () => {
  it('a later, more specific rule is shadowed by an earlier prefix', async () => {
    expect((await g.send('/admin/users/1')).status).toBe(401);
    expect((await g.send('/admin/users/1', bearer(await token(k.ed, { scope: 'admin' })))).status).toBe(200);
  });

  it('a path whose raw and decoded spellings match different rules gets the strictest', async () => {
    // Raw: /docs/..%2Fadmin/x (auth none). Decoded and normalised: /admin/x (scope admin).
    expect((await g.send('/docs/..%2Fadmin/x')).status).toBe(401);
    expect((await g.send('/docs/..%2Fadmin/x', bearer(await token(k.ed, { scope: 'read' })))).status).toBe(403);
  });
});

describe('rule configuration', () => {
  const bad = (rule: Record<string, unknown>): string => {
    try {
      parseConfig({ issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: 'https://id.example.com/jwks' }], rules: [rule] });
      return 'OK';
    } catch (e) {
      return (e as { setting: string }).setting;
    }
  };
  it('names the bad setting', () => {
    expect(bad({ pathPrefix: '/a', auth: 'maybe' })).toBe('rules[0].auth');
    expect(bad({ pathPrefix: '/a', auth: 'none', scopes: ['x'] })).toBe('rules[0]');
    expect(bad({ pathPrefix: '/a', issuers: ['https://other.example.com'] })).toBe('rules[0].issuers[0]');
    expect(bad({ pathPrefix: '/a', methods: ['G ET'] })).toBe('rules[0].methods[0]');
    expect(bad({ pathPrefix: '/a', methods: [] })).toBe('rules[0].methods');
    expect(bad({ pathPrefix: '/a', auth: 'required' })).toBe('OK');
    expect(bad({ pathPrefix: '/a', methods: 'get', scopes: 'x' })).toBe('OK');
  });
});
