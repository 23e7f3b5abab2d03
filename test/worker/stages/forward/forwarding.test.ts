// What reaches the origin: forwardPayload (base64url of the verified payload),
// forwardToken (keep or drop the credential), and a service-binding origin.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/worker/config.js';
import { unb64u } from '../../../shared/jwt-mint.js';
import { SERVICE_BASE } from '../../../../src/worker/stages/forward/service-origin.js';
import { TestCtx, baseConfig, bearer, demoKeys, makeGuard, token, type Keys } from '../../harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

const seen = async (res: Response): Promise<Record<string, string>> =>
  ((await res.json()) as { headers: Record<string, string> }).headers;

describe('forwardPayload', () => {
  it('carries base64url(JSON) of the verified payload; a client-sent copy never survives', async () => {
    const g = await makeGuard(k, { config: baseConfig(k, { forwardPayload: 'X-Jwt-Payload' }) });
    const res = await g.send('/x', {
      headers: {
        authorization: `Bearer ${await token(k.ed, { sub: 'p1', roles: ['a', 'b'] })}`,
        'x-jwt-payload': 'forged',
      },
    });
    const h = await seen(res);
    const payload = JSON.parse(new TextDecoder().decode(unb64u(h['x-jwt-payload']!))) as Record<string, unknown>;
    expect(payload).toMatchObject({ sub: 'p1', roles: ['a', 'b'], aud: 'api' });
    const pub = await seen(await g.send('/health', { headers: { 'x-jwt-payload': 'forged' } }));
    expect(pub['x-jwt-payload']).toBeUndefined();
  });

  it(
    'a client-sent copy in the _ spelling (X_Jwt_Payload, read as X-Jwt-Payload by CGI/WSGI/PHP) never ' +
      'survives either',
    async () => {
      const g = await makeGuard(k, { config: baseConfig(k, { forwardPayload: 'X-Jwt-Payload' }) });
      const spoof = { x_jwt_payload: 'forged', 'x-jwt_payload': 'forged' };
      const authed = await seen(
        await g.send('/x', { headers: { authorization: `Bearer ${await token(k.ed)}`, ...spoof } }),
      );
      expect(Object.keys(authed).filter((h) => h.replaceAll('_', '-') === 'x-jwt-payload')).toEqual(['x-jwt-payload']);
      expect(authed['x-jwt-payload']).not.toBe('forged');
      const pub = await seen(await g.send('/health', { headers: spoof }));
      expect(Object.keys(pub).filter((h) => h.replaceAll('_', '-') === 'x-jwt-payload')).toEqual([]);
    },
  );

  it('cannot be a reserved or claim header', () => {
    expect(() => parseConfig(baseConfig(k, { forwardPayload: 'Authorization' }))).toThrow(/forwardPayload/);
    expect(() => parseConfig(baseConfig(k, { forwardPayload: 'X-Auth-Sub' }))).toThrow(/forwardPayload/);
  });
});

describe('forwardToken', () => {
  it('default true: the credential reaches the origin', async () => {
    const g = await makeGuard(k);
    const t = await token(k.ed);
    expect((await seen(await g.send('/x', bearer(t)))).authorization).toBe(`Bearer ${t}`);
  });

  it('false: Authorization and the token cookie are dropped, other cookies kept', async () => {
    const g = await makeGuard(k, { config: baseConfig(k, { forwardToken: false }) });
    const t = await token(k.ed);
    const h = await seen(
      await g.send('/x', { headers: { authorization: `Bearer ${t}`, cookie: `theme=dark; session=${t}` } }),
    );
    expect(h.authorization).toBeUndefined();
    expect(h.cookie).toBe('theme=dark');
    expect(JSON.stringify(h)).not.toContain(t.split('.')[2]!);
  });
});

describe('service-binding origin', () => {
  it('forwards through env.<binding>.fetch with the identity headers, never over the network', async () => {
    const got: Request[] = [];
    const API = {
      fetch: async (r: Request) => (got.push(r), Response.json({ via: 'binding', sub: r.headers.get('x-auth-sub') })),
    };
    const g = await makeGuard(k, { config: baseConfig(k, { origin: { service: 'API' } }), env: { API } });
    const res = await g.send('/orders?id=7', bearer(await token(k.ed, { sub: 'svc' })));
    expect(await res.json()).toEqual({ via: 'binding', sub: 'svc' });
    expect(new URL(got[0]!.url).pathname + new URL(got[0]!.url).search).toBe('/orders?id=7');
    expect(g.net.calls.some((c) => !c.url.startsWith('https://id.example.com'))).toBe(false);
  });

  it('a service binding receives the canonical path on a fixed host, never a host chosen by the request', async () => {
    const got: Request[] = [];
    const API = { fetch: async (r: Request) => (got.push(r), new Response('ok')) };
    const g = await makeGuard(k, { config: baseConfig(k, { origin: { service: 'API' } }), env: { API } });
    const auth = bearer(await token(k.ed));
    // The request's own host (here attacker.example, as an absolute-form target would give) is not passed on.
    const res = await g.guard.handle(
      new Request('https://attacker.example//orders//%7Ealice?x=1', auth),
      new TestCtx(),
    );
    expect(res.status).toBe(200);
    const u = new URL(got[0]!.url);
    expect(u.origin).toBe(SERVICE_BASE);
    expect(u.pathname + u.search).toBe('/orders/~alice?x=1');
    expect((await g.send('//attacker.example/steal', auth)).status).toBe(200);
    expect(new URL(got[1]!.url).origin).toBe(SERVICE_BASE);
    expect(new URL(got[1]!.url).pathname).toBe('/attacker.example/steal');
    // paths.forward "received": the path as received, still on the fixed host.
    const r = await makeGuard(k, {
      config: baseConfig(k, { origin: { service: 'API' }, paths: { forward: 'received' } }),
      env: { API },
    });
    await r.send('//orders//%7Ealice', auth);
    expect(got[2]!.url).toBe(`${SERVICE_BASE}//orders//%7Ealice`);
  });

  it(
    'a service binding: refused paths are a 400 and a GET with a body is a 400, not a 502; the binding is ' +
      'never called',
    async () => {
      const got: Request[] = [];
      const API = { fetch: async (r: Request) => (got.push(r), new Response('ok')) };
      const g = await makeGuard(k, { config: baseConfig(k, { origin: { service: 'API' } }), env: { API } });
      const t = await token(k.ed);
      expect((await g.send('/%2Forders/x', bearer(t))).status).toBe(400);
      // A GET carrying a body, as the runtime hands it over from the wire; the Request constructor refuses one, so
      // built by hand.
      const get = {
        url: 'https://api.example.com/orders/1',
        method: 'GET',
        headers: new Headers({ authorization: `Bearer ${t}` }),
        body: new Response('x').body,
      } as unknown as Request;
      const res = await g.guard.handle(get, new TestCtx());
      expect(res.status).toBe(400);
      expect(got).toHaveLength(0);
    },
  );

  it('a binding that throws is a 502; a missing binding is a configuration error naming origin.service', async () => {
    const g = await makeGuard(k, {
      config: baseConfig(k, { origin: { service: 'API' } }),
      env: { API: { fetch: async () => Promise.reject(new Error('down')) } },
    });
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(502);
    await expect(makeGuard(k, { config: baseConfig(k, { origin: { service: 'NOPE' } }) })).rejects.toThrow(
      /origin.service/,
    );
    expect(() => parseConfig(baseConfig(k, { origin: { service: 'a-b' } }))).toThrow(/origin.service/);
  });
});

describe('service-binding origin and Host', () => {
  it('service_binding_never_gets_client_host: the binding never sees the Host the client sent', async () => {
    const got: Request[] = [];
    const API = { fetch: async (r: Request) => (got.push(r), new Response('ok')) };
    const g = await makeGuard(k, { config: baseConfig(k, { origin: { service: 'API' } }), env: { API } });
    const t = await token(k.hs);
    for (const path of ['/x', '/health']) {
      const res = await g.guard.handle(
        new Request(`https://api.example.com${path}`, {
          headers: { host: 'attacker.example', authorization: `Bearer ${t}` },
        }),
        new TestCtx(),
      );
      expect(res.status).toBe(200);
    }
    expect(got).toHaveLength(2);
    for (const r of got) expect(r.headers.get('host')).toBeNull();
  });
});
