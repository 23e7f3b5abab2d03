// Regression tests for the hardening review (issue 11), each named after the
// defect it pins: the request can never pick where the guard forwards, a path
// rule cannot be skipped by another spelling of the path, identity headers in
// other spellings are stripped, and a request the runtime accepts never gets a 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, ConfigError } from '../../src/worker/config.js';
import { ORIGIN, baseConfig, bearer, demoKeys, makeGuard, token, type Keys, type Made } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

/** Every request the guard sent that was not a key-set fetch. */
function forwarded(g: Made): string[] {
  return g.net.calls.filter((c) => !c.url.includes('/jwks')).map((c) => c.url);
}

async function originPath(res: Response): Promise<string> {
  return ((await res.json()) as { path: string }).path;
}

describe('forward_host_fixed: the request path never chooses the host', () => {
  // Spellings that a URL-reference reading of the path turns into another authority.
  const shapes = [
    '//attacker.example:8443/steal',
    '/\\attacker.example/steal',
    '\\\\attacker.example/steal',
    '/%2F%2Fattacker.example/steal',
    '/%5C%5Cattacker.example/steal',
    '/..//attacker.example/steal',
    '/.//attacker.example/steal',
    '///attacker.example/steal?x=//evil',
  ];

  const variants: (Record<string, string> | undefined)[] = [undefined];
  for (const forward of ['canonical', 'received'])
    for (const escapedSlashes of ['reject', 'decode']) variants.push({ forward, escapedSlashes });

  for (const paths of variants) {
    it(`only the configured origin receives requests (paths ${JSON.stringify(paths ?? 'default')})`, async () => {
      const g = await makeGuard(k, { config: baseConfig(k, paths === undefined ? {} : { paths }) });
      const t = await token(k.ed);
      for (const shape of shapes) {
        const res = await g.guard.handle(new Request(`https://api.example.com${shape}`, bearer(t)), {
          waitUntil: () => undefined,
        });
        expect([200, 400], shape).toContain(res.status);
      }
      // An absolute-form request target for another host (the runtime's request.url says so).
      const abs = await g.guard.handle(new Request('http://other.example:8080/steal', bearer(t)), {
        waitUntil: () => undefined,
      });
      expect(abs.status).toBe(200);
      const sent = forwarded(g);
      expect(sent.length).toBeGreaterThan(0);
      for (const url of sent) expect(new URL(url).origin).toBe(ORIGIN);
    });
  }

  it('public paths are forwarded to the origin too, never elsewhere', async () => {
    const g = await makeGuard(k);
    const res = await g.send('//health');
    expect(res.status).toBe(200);
    expect(forwarded(g)).toEqual([`${ORIGIN}/health`]);
  });
});

describe('path_rule_not_skipped: a rule on /admin/ holds for every spelling', () => {
  // baseConfig: rules [{ pathPrefix: '/admin/', scopes: ['admin'], claims: { tenant: 'acme' } }].
  const spellings = [
    '/admin/x',
    '//admin/x',
    '/%2Fadmin/x',
    '/Admin/x',
    '/ADMIN/X',
    '/admin',
    '/Admin',
    '/admin;x/y',
    '/admin;jsessionid=1',
    '/%61dmin/x',
    '/%41DMIN/x',
    '/admin%3Bx/y',
    '/\\admin/x',
    '/static/../admin/x',
    '/static/%2e%2e/admin/x',
    '/static/..;/admin/x',
    '/x/.%2E;y/admin/x',
  ];

  it('a read-only token never reaches the origin', async () => {
    const g = await makeGuard(k);
    const t = await token(k.ed, { scope: 'read' });
    for (const s of spellings) {
      const res = await g.send(s, bearer(t));
      expect([400, 403], s).toContain(res.status);
    }
    expect(forwarded(g)).toEqual([]);
  });

  it('an admin token passes, and the origin gets the canonical path', async () => {
    const g = await makeGuard(k);
    const t = await token(k.ed, { scope: 'admin', tenant: 'acme' });
    expect(await originPath(await g.send('//Admin//%7Ex', bearer(t)))).toBe('/Admin/~x');
  });

  it('paths.caseSensitive: true matches rules by exact case (opt-out)', async () => {
    const g = await makeGuard(k, { config: baseConfig(k, { paths: { caseSensitive: true } }) });
    const t = await token(k.ed, { scope: 'read' });
    expect((await g.send('/admin/x', bearer(t))).status).toBe(403);
    expect((await g.send('/Admin/x', bearer(t))).status).toBe(200);
  });

  it('a public path is public only when every reading is public', async () => {
    const g = await makeGuard(k);
    expect((await g.send('/health')).status).toBe(200);
    expect((await g.send('//health')).status).toBe(200);
    // `/health;x` is `/health` to Spring, `/health;x` to nginx: not every reading is public.
    expect((await g.send('/health;x')).status).toBe(401);
    expect((await g.send('/HEALTH')).status).toBe(401);
  });
});

describe('path_refused_400: spellings with more than one reading are refused', () => {
  const refused = [
    '/a%2Fb',
    '/a%2fb',
    '/a%5Cb',
    '/a%00b',
    '/a%zzb',
    '/a%2',
    '/a/%2e%2e;x/b',
    '/a/..;/b',
    '/a/.;x/b',
    '/a/%2e%2E%3B/b',
  ];

  it('answers 400 invalid_request and counts path_refused, before any token is read', async () => {
    const g = await makeGuard(k);
    for (const p of refused) {
      const res = await g.send(p);
      expect(res.status, p).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    }
    expect(g.guard.counters.get('path_refused')).toBe(refused.length);
    expect(forwarded(g)).toEqual([]);
  });

  it('paths.escapedSlashes: "decode" reads %2F and %5C as / instead', async () => {
    const g = await makeGuard(k, { config: baseConfig(k, { paths: { escapedSlashes: 'decode' } }) });
    const t = await token(k.ed, { scope: 'read' });
    expect((await g.send('/%2Fadmin/x', bearer(t))).status).toBe(403);
    expect(await originPath(await g.send('/a%2Fb%5Cc', bearer(t)))).toBe('/a/b/c');
  });
});

describe('path_forward_mode: what the origin receives', () => {
  it('the canonical path by default, the received one with paths.forward: "received"', async () => {
    const t = await token(k.ed);
    const canon = await makeGuard(k);
    expect(await originPath(await canon.send('//a//b/%7e;p', bearer(t)))).toBe('/a/b/~;p');
    const recv = await makeGuard(k, { config: baseConfig(k, { paths: { forward: 'received' } }) });
    expect(await originPath(await recv.send('//a//b/%7e;p', bearer(t)))).toBe('//a//b/%7e;p');
    expect(recv.net.calls.at(-1)!.url).toBe(`${ORIGIN}//a//b/%7e;p`);
  });
});

describe('identity_header_underscore_stripped', () => {
  it('X_Auth_Scope, X-Auth_Sub and friends never reach the origin', async () => {
    const g = await makeGuard(k);
    const res = await g.send('/health', {
      headers: {
        X_Auth_Scope: 'admin',
        'X-Auth_Sub': 'root',
        x_auth_sub: 'root',
        'x-auth-scope': 'admin',
        'X-Other_Header': 'kept',
      },
    });
    expect(res.status).toBe(200);
    const h = ((await res.json()) as { headers: Record<string, string> }).headers;
    expect(Object.keys(h).filter((n) => n.replaceAll('_', '-').startsWith('x-auth-'))).toEqual([]);
    expect(h['x-other_header']).toBe('kept');
  });

  it("with a token, only the guard's own value arrives", async () => {
    const g = await makeGuard(k);
    const t = await token(k.ed, { sub: 'alice', scope: 'read' });
    const res = await g.send('/x', { headers: { authorization: `Bearer ${t}`, X_Auth_Sub: 'root' } });
    const h = ((await res.json()) as { headers: Record<string, string> }).headers;
    expect(h['x-auth-sub']).toBe('alice');
    expect(h.x_auth_sub).toBeUndefined();
  });
});

describe('guard_admin_header_never_forwarded_in_any_spelling', () => {
  it(
    'X-Guard-Admin, X_Guard_Admin and mixed spellings never ' + 'reach the origin (a CGI origin reads them alike)',
    async () => {
      const g = await makeGuard(k);
      const t = await token(k.ed, { sub: 'alice' });
      for (const name of ['X-Guard-Admin', 'X_Guard_Admin', 'x-guard_admin', 'X_GUARD-ADMIN']) {
        const res = await g.send('/x', { headers: { authorization: `Bearer ${t}`, [name]: 'secret-guess' } });
        expect(res.status).toBe(200);
        const h = ((await res.json()) as { headers: Record<string, string> }).headers;
        expect(Object.keys(h).filter((n) => n.replaceAll('_', '-') === 'x-guard-admin')).toEqual([]);
      }
    },
  );
});

describe('get_head_body_not_500', () => {
  // The runtime hands the Worker a GET or HEAD with a body when a client sends one;
  // the Request constructor refuses to build such a request, so it is built by hand.
  function withBody(method: string, path: string, auth?: string): Request {
    const headers = new Headers(auth === undefined ? {} : { authorization: `Bearer ${auth}` });
    return {
      url: `https://api.example.com${path}`,
      method,
      headers,
      body: new Response('payload').body,
    } as unknown as Request;
  }

  for (const method of ['GET', 'HEAD']) {
    it(`${method} with a body is refused with 400, not 500`, async () => {
      const g = await makeGuard(k);
      const pub = await g.guard.handle(withBody(method, '/health'), { waitUntil: () => undefined });
      expect(pub.status).toBe(400);
      const t = await token(k.ed);
      const priv = await g.guard.handle(withBody(method, '/x', t), { waitUntil: () => undefined });
      expect(priv.status).toBe(400);
      expect(g.guard.counters.get('internal_error')).toBe(0);
      expect(g.guard.counters.get('request_refused')).toBe(2);
    });
  }
});

describe('forward_claims_own_only', () => {
  it('a claim name Object.prototype carries (constructor) is absent, not forwarded nor a 500', async () => {
    const g = await makeGuard(k, {
      config: baseConfig(k, { forwardClaims: { sub: 'X-Auth-Sub', constructor: 'X-Auth-Ctor' } }),
    });
    const res = await g.send('/x', bearer(await token(k.ed)));
    expect(res.status).toBe(200);
    const h = ((await res.json()) as { headers: Record<string, string> }).headers;
    expect(h['x-auth-ctor']).toBeUndefined();
  });
});

describe('paths configuration', () => {
  const settingOf = (extra: Record<string, unknown>): string => {
    try {
      parseConfig({
        issuers: [{ issuer: 'https://i', audience: 'a', algorithms: ['EdDSA'], jwksUrl: 'https://i/jwks' }],
        ...extra,
      });
      return 'OK';
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      return e.setting;
    }
  };
  it('names the bad setting', () => {
    expect(settingOf({ paths: { escapedSlashes: 'allow' } })).toBe('paths.escapedSlashes');
    expect(settingOf({ paths: { caseSensitive: 'yes' } })).toBe('paths.caseSensitive');
    expect(settingOf({ paths: { forward: 'raw' } })).toBe('paths.forward');
    expect(settingOf({ paths: { mergeSlashes: false } })).toBe('paths.mergeSlashes');
    expect(settingOf({ admin: { path: '/_admin', secretBinding: 'S', open: true } })).toBe('admin.open');
    expect(settingOf({ rules: [{ pathPrefix: '//admin/', scopes: ['a'] }] })).toBe('rules[0].pathPrefix');
    expect(settingOf({ rules: [{ pathPrefix: '/%61dmin/', scopes: ['a'] }] })).toBe('rules[0].pathPrefix');
    expect(settingOf({ publicPaths: ['/static/../*'] })).toBe('publicPaths[0]');
    expect(settingOf({ paths: { escapedSlashes: 'decode', caseSensitive: true, forward: 'received' } })).toBe('OK');
  });
});

describe('deploy_doc_path_table: the rows of docs/deploy.md "Request paths" hold', () => {
  // [received, rule /admin/ applies, what the origin receives with an admin token (or the status)]
  const rows: [string, boolean | '—', string | number][] = [
    ['/admin/x', true, '/admin/x'],
    ['//admin//x', true, '/admin/x'],
    ['/\\admin/x', true, '/admin/x'],
    ['/Admin/x', true, '/Admin/x'],
    ['/ADMIN/X', true, '/ADMIN/X'],
    ['/admin', true, '/admin'],
    ['/admin;x/y', true, '/admin;x/y'],
    ['/admin;jsessionid=1', true, '/admin;jsessionid=1'],
    ['/%61dmin/x', true, '/admin/x'],
    ['/%7Eadmin', false, '/~admin'],
    ['/admin%3Bx/y', true, '/admin%3Bx/y'],
    ['/%2Fadmin/x', '—', 400],
    ['/a%5Cb', '—', 400],
    ['/a%00b', '—', 400],
    ['/a%zz', '—', 400],
    ['/a%2', '—', 400],
    ['/static/..;/admin/x', '—', 400],
    ['/a/%2e%2e;x/b', '—', 400],
    ['/static/../admin/x', true, '/admin/x'],
    ['/static/%2e%2e/admin/x', true, '/admin/x'],
    ['//attacker.example/steal', false, '/attacker.example/steal'],
  ];
  it('each row', async () => {
    const g = await makeGuard(k);
    const read = await token(k.ed, { scope: 'read' });
    const admin = await token(k.ed, { scope: 'read admin', tenant: 'acme' });
    for (const [received, applies, origin] of rows) {
      const r = await g.send(received, bearer(read));
      if (applies === '—') expect(r.status, received).toBe(400);
      else expect(r.status, received).toBe(applies ? 403 : 200);
      const a = await g.send(received, bearer(admin));
      if (typeof origin === 'number') expect(a.status, received).toBe(origin);
      else {
        expect(a.status, received).toBe(200);
        expect(g.net.calls.at(-1)!.url, received).toBe(`${ORIGIN}${origin}`);
      }
    }
    const d = await makeGuard(k, { config: baseConfig(k, { paths: { escapedSlashes: 'decode' } }) });
    expect((await d.send('/%2Fadmin/x', bearer(read))).status).toBe(403);
    expect(await originPath(await d.send('/a%5Cb', bearer(read)))).toBe('/a/b');
    expect((await g.send('/health;x')).status).toBe(401);
  });
});
