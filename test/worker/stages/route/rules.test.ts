// The rule model: pathPrefix + methods, auth required|optional|none, per-rule
// issuers/audience/scopes/claims; the first matching rule wins.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/worker/config.js';
import {
  AUD,
  HS_ISS,
  ISS,
  baseConfig,
  bearer,
  demoKeys,
  forged,
  makeGuard,
  token,
  type Keys,
  type Made,
} from '../../harness.js';

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

const seen = async (res: Response): Promise<Record<string, string>> =>
  ((await res.json()) as { headers: Record<string, string> }).headers;

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

  it('a path whose readings match different rules gets the strictest', async () => {
    // Readings of /files/private;x/doc (src/worker/stages/path/path.ts): as sent, it falls under
    // /files/ (auth none); without ;params, as Spring reads it, under /files/private/ (scope admin).
    const files = await makeGuard(k, {
      config: baseConfig(k, {
        rules: [
          { pathPrefix: '/files/private/', scopes: ['admin'] },
          { pathPrefix: '/files/', auth: 'none' },
        ],
      }),
    });
    expect((await files.send('/files/a')).status).toBe(200);
    expect((await files.send('/files/private;x/doc')).status).toBe(401);
    expect((await files.send('/files/private;x/doc', bearer(await token(k.ed, { scope: 'read' })))).status).toBe(403);
    expect((await files.send('/files/private;x/doc', bearer(await token(k.ed, { scope: 'admin' })))).status).toBe(200);
    // The spelling this test used before canonical paths (raw /docs/..%2Fadmin/x under
    // /docs/, decoded /admin/x under /admin/) is now refused outright: an encoded slash.
    expect((await g.send('/docs/..%2Fadmin/x')).status).toBe(400);
    expect((await g.send('/docs/..%2Fadmin/x', bearer(await token(k.ed, { scope: 'read' })))).status).toBe(400);
  });

  it(
    'rule_case_views: an earlier auth none rule matched only with case folded does not hide a later rule a ' +
      'case-sensitive origin routes to',
    async () => {
      // Found by the first-match property in path-properties.test.ts: nginx routes /v1/admiN
      // under /v1 (scope admin), not under /v1/admin (auth none).
      const m = await makeGuard(k, {
        config: baseConfig(k, {
          rules: [
            { pathPrefix: '/v1/admin', auth: 'none' },
            { pathPrefix: '/v1', scopes: ['admin'] },
          ],
        }),
      });
      expect((await m.send('/v1/admin/x')).status).toBe(200);
      expect((await m.send('/v1/admiN/x')).status).toBe(401);
      expect((await m.send('/v1/admiN/x', bearer(await token(k.ed, { scope: 'read' })))).status).toBe(403);
      expect((await m.send('/V1/Admin/x', bearer(await token(k.ed, { scope: 'admin' })))).status).toBe(200);
    },
  );

  it(
    'escaped_slash_decode_params_first: with paths.escapedSlashes "decode", a ;param that swallows an encoded ' +
      'slash does not reach a first-matching auth none rule',
    async () => {
      // Spring drops ;params before it decodes: /internal;p=1%2fv1/doc is /internal/doc to it
      // (rule 2, scope admin), while the canonical path /internal;p=1/v1/doc without
      // ;params is /internal/v1/doc (rule 1, auth none). With forward "received" Spring gets
      // the raw path; with "canonical" it cannot, but the guard reads the path the same way
      // in both modes (fail closed). Found by the first-match property in path-properties.test.ts.
      for (const forward of ['canonical', 'received']) {
        const m = await makeGuard(k, {
          config: baseConfig(k, {
            rules: [
              { pathPrefix: '/internal/v1', auth: 'none' },
              { pathPrefix: '/internal/', scopes: ['admin'] },
            ],
            paths: { escapedSlashes: 'decode', forward },
          }),
        });
        expect((await m.send('/internal/v1/doc')).status).toBe(200);
        expect((await m.send('/internal;p=1%2fv1/doc')).status, forward).toBe(401);
        expect(
          (await m.send('/internal;p=1%2fv1/doc', bearer(await token(k.ed, { scope: 'read' })))).status,
          forward,
        ).toBe(403);
        expect(
          (await m.send('/internal;p=1%2fv1/doc', bearer(await token(k.ed, { scope: 'admin' })))).status,
          forward,
        ).toBe(200);
      }
    },
  );

  it(
    'received_path_reading: with paths.forward "received", the raw path is read too (Express routes ' +
      '/v1/ad%6Din/x under /v1, not /v1/admin/)',
    async () => {
      const rules = [
        { pathPrefix: '/v1/admin/', auth: 'none' },
        { pathPrefix: '/v1', scopes: ['admin'] },
      ];
      const received = await makeGuard(k, { config: baseConfig(k, { rules, paths: { forward: 'received' } }) });
      expect((await received.send('/v1/admin/x')).status).toBe(200);
      expect((await received.send('/v1/ad%6Din/x')).status).toBe(401);
      expect((await received.send('/v1/ad%6Din/x', bearer(await token(k.ed, { scope: 'read' })))).status).toBe(403);
      // Forwarded canonical, the origin gets /v1/admin/x: the auth none rule is right.
      const canonical = await makeGuard(k, { config: baseConfig(k, { rules }) });
      const res = await canonical.send('/v1/ad%6Din/x');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { path: string }).path).toBe('/v1/admin/x');
    },
  );

  it(
    'escaped_backslash_literal_reading: with paths.escapedSlashes "decode", %5C is also read as a backslash ' +
      '(nginx: /admin\\ is under /admin, not /admin/)',
    async () => {
      const m = await makeGuard(k, {
        config: baseConfig(k, {
          rules: [
            { pathPrefix: '/admin/', auth: 'none' },
            { pathPrefix: '/admin', scopes: ['admin'] },
          ],
          paths: { escapedSlashes: 'decode', forward: 'received' },
        }),
      });
      expect((await m.send('/admin/')).status).toBe(200);
      // (Spelt with %6D too, so that the path as received is not itself under /admin.)
      expect((await m.send('/ad%6Din%5C')).status).toBe(401);
      expect((await m.send('/ad%6Din%5C', bearer(await token(k.ed, { scope: 'read' })))).status).toBe(403);
    },
  );

  it(
    'rule prefixes match every spelling of the path (case, slashes, a missing trailing slash) with first-match ' +
      'order kept',
    async () => {
      const reader = await token(k.ed, { scope: 'read' });
      for (const p of ['/ADMIN/x', '//admin//x', '/admin', '/%61dmin/x', '/admin;v=1/x']) {
        expect((await g.send(p, bearer(reader))).status, p).toBe(403);
      }
      // /Admin/Users/1 is still shadowed by /admin/ (listed first), whatever the case.
      expect((await g.send('/Admin/Users/1')).status).toBe(401);
      // /DOCS/a is /docs/a (auth none) only to a case-insensitive origin; a case-sensitive
      // one routes it under no rule, so a token is needed (as for public paths).
      expect((await g.send('/docs/a')).status).toBe(200);
      expect((await g.send('/DOCS/a')).status).toBe(401);
      expect((await g.send('/DOCS/a', bearer(reader))).status).toBe(200);
    },
  );
});

describe('rule configuration', () => {
  const bad = (rule: Record<string, unknown>): string => {
    try {
      parseConfig({
        issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: 'https://id.example.com/jwks' }],
        rules: [rule],
      });
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
