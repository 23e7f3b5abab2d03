// CORS: preflights from allowed origins are answered by the guard without a
// token; every other response to an allowed origin (401/403 included) carries
// the CORS headers; with `cors`, every response carries Vary: Origin; without
// `cors`, a preflight to a protected path is a 401.
import { beforeAll, describe, expect, it } from 'vitest';
import { baseConfig, bearer, demoKeys, makeGuard, token, type Keys, type Made } from '../../harness.js';
import { withCors } from '../../../../src/worker/stages/cors/cors.js';
import type { CorsConfig } from '../../../../src/worker/stages/cors/cors.js';

let k: Keys;
let g: Made;
const APP = 'https://app.example.com';
beforeAll(async () => {
  k = await demoKeys();
  g = await makeGuard(k, {
    config: baseConfig(k, {
      cors: {
        allowOrigins: [APP],
        allowHeaders: ['Authorization', 'Content-Type'],
        exposeHeaders: ['WWW-Authenticate'],
        maxAge: 300,
        credentials: true,
      },
    }),
  });
});

const preflight = (origin: string): RequestInit => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
});

describe('CORS', () => {
  it('a preflight from an allowed origin: 204 with the CORS headers, no token needed, not forwarded', async () => {
    const before = g.net.calls.length;
    const res = await g.send('/orders', preflight(APP));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(res.headers.get('access-control-max-age')).toBe('300');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(g.net.calls.length).toBe(before);
  });

  it('a preflight from another origin gets no CORS headers and is treated as any request (401)', async () => {
    const res = await g.send('/orders', preflight('https://evil.example.com'));
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refusals carry the CORS headers so the page can read them', async () => {
    for (const [init, status] of [
      [{ headers: { origin: APP } }, 401],
      [{ headers: { origin: APP, authorization: 'Bearer a b' } }, 400],
    ] as [RequestInit, number][]) {
      const res = await g.send('/orders', init);
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    }
    const t = await token(k.ed, { scope: 'read', tenant: 'acme' });
    const forbidden = await g.send('/admin/x', { headers: { origin: APP, authorization: `Bearer ${t}` } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('an accepted request carries them on the origin response', async () => {
    const t = await token(k.ed);
    const res = await g.send('/orders', { headers: { origin: APP, authorization: `Bearer ${t}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('x-origin')).toBe('yes');
  });

  it('a same-origin request (no Origin header) gets none', async () => {
    const res = await g.send('/orders', bearer(await token(k.ed)));
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('without cors, a preflight to a protected path stays 401', async () => {
    const plain = await makeGuard(k);
    expect((await plain.send('/orders', preflight(APP))).status).toBe(401);
  });

  it('"*" answers any origin, never with credentials; bad origins are configuration errors', async () => {
    const star = await makeGuard(k, { config: baseConfig(k, { cors: { allowOrigins: ['*'] } }) });
    const res = await star.send('/x', preflight('https://any.example.com'));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const { parseConfig } = await import('../../../../src/worker/config.js');
    expect(() => parseConfig(baseConfig(k, { cors: { allowOrigins: ['*'], credentials: true } }))).toThrow(
      /cors.allowOrigins/,
    );
    expect(() => parseConfig(baseConfig(k, { cors: { allowOrigins: ['https://app.example.com/'] } }))).toThrow(
      /cors.allowOrigins\[0\]/,
    );
    expect(() => parseConfig(baseConfig(k, { cors: { allowOrigins: [APP], maxAge: -1 } }))).toThrow(/cors.maxAge/);
  });
});

describe("CORS and the origin's own Vary", () => {
  const cors: CorsConfig = {
    allowOrigins: [APP],
    allowMethods: ['GET'],
    allowHeaders: [],
    exposeHeaders: [],
    maxAge: 0,
    credentials: false,
  };
  it('cors_vary_not_repeated: an origin that already varies on Origin (any case, or *) keeps its Vary as it is', () => {
    for (const vary of ['Origin', 'accept-encoding, origin', 'Accept-Encoding,ORIGIN', '*']) {
      const res = withCors(new Response('x', { headers: { vary } }), cors, APP);
      expect(res.headers.get('vary')).toBe(vary);
    }
  });
  it('an origin that varies on something else gets Origin added once', () => {
    const res = withCors(new Response('x', { headers: { vary: 'Accept-Encoding' } }), cors, APP);
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin');
  });
});

describe('Vary: Origin under cors', () => {
  const preflight = (origin: string): RequestInit => ({
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST' },
  });

  for (const allowOrigins of [[APP], ['*'], [APP, '*']]) {
    it(
      `cors_vary_on_every_response (allowOrigins ${JSON.stringify(allowOrigins)}): refusals, other origins, no ` +
        `Origin, preflights, forwarded responses`,
      async () => {
        const g = await makeGuard(k, { config: baseConfig(k, { cors: { allowOrigins } }) });
        const t = await token(k.hs);
        const cases: [string, RequestInit][] = [
          ['/x', {}],
          ['/x', { headers: { origin: 'https://evil.example.com' } }],
          ['/x', { headers: { origin: APP } }],
          ['/x', bearer(t)],
          ['/x', { headers: { origin: 'https://evil.example.com', authorization: `Bearer ${t}` } }],
          ['/x', { headers: { origin: APP, authorization: `Bearer ${t}` } }],
          ['/health', {}],
          ['/health', { headers: { origin: 'https://evil.example.com' } }],
          ['/orders', preflight('https://evil.example.com')],
          ['/orders', preflight(APP)],
          ['/%2Fx', {}],
          ['/x', bearer('a.b.c')],
          ['/admin/x', bearer(t)],
          ['/x', { headers: { 'x-http-method-override': 'DELETE' } }],
        ];
        const statuses = new Set<number>();
        for (const [path, init] of cases) {
          const res = await g.send(path, init);
          statuses.add(res.status);
          expect(res.headers.get('vary'), `${path} ${JSON.stringify(init)}`).toMatch(/(^|,\s*)Origin(\s*,|$)/);
        }
        // Refusals, preflights and forwarded origin responses were all among them.
        expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 204, 400, 401, 403]));
      },
    );
  }
});
