// reserved_path_spellings_never_forwarded for a config whose only reserved path is
// admin.path: the reserved-path check arrives with the admin feature; another spelling of
// the path must still be a 404 that never reaches the origin, with or without the admin secret on it.
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, createGuard } from '../../../../src/worker/api.js';
import { AUD, HS_ISS, TestCtx, demoKeys, token, type Keys } from '../../harness.js';

const SECRET = 'an-admin-secret-of-16+';
const b64u = (b: Uint8Array): string =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const RAW = {
  issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' }],
  origin: 'builtin:echo',
  cache: { jwks: false },
  admin: { path: '/__guard/stats', secretBinding: 'ADMIN_SECRET' },
};

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

describe('reserved_path_spellings_never_forwarded (admin.path alone)', () => {
  it(
    'another spelling of admin.path is a 404, never ' + 'echoed by the origin; the exact path is the endpoint',
    async () => {
      const env = { HS_KEY: b64u(k.hs.secret!), ADMIN_SECRET: SECRET };
      const t = await token(k.hs);
      const guards = [createGuard(RAW, { stages: [admin] })];
      for (const g of guards) {
        for (const spelling of [
          '/__guard/st%61ts',
          '/__GUARD/stats',
          '/__guard/Stats',
          '/__guard/stats;x',
          '//__guard/stats',
          '/__guard%2fstats',
        ]) {
          const res = await g.fetch(
            new Request(`https://api.example.com${spelling}`, {
              headers: { authorization: `Bearer ${t}`, 'x-guard-admin': SECRET },
            }),
            env,
            new TestCtx(),
          );
          // 404 (reserved spelling) or 400 (a path the guard cannot read one way): never the origin's 200.
          expect([400, 404], spelling).toContain(res.status);
          expect(await res.text(), spelling).not.toContain('x-guard-admin');
        }
        const exact = await g.fetch(
          new Request('https://api.example.com/__guard/stats', { headers: { 'x-guard-admin': SECRET } }),
          env,
          new TestCtx(),
        );
        expect(exact.status).toBe(200);
        expect(((await exact.json()) as { counters?: unknown }).counters).toBeDefined();
        // An ordinary route still reaches the origin, without the admin secret.
        const ordinary = await g.fetch(
          new Request('https://api.example.com/orders', {
            headers: { authorization: `Bearer ${t}`, 'x-guard-admin': SECRET },
          }),
          env,
          new TestCtx(),
        );
        expect(ordinary.status).toBe(200);
        expect(
          ((await ordinary.json()) as { headers: Record<string, string> }).headers['x-guard-admin'],
        ).toBeUndefined();
      }
    },
  );
});
