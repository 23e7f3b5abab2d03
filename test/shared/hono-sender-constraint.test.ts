// edgejwt/hono checks no proof of possession, so a sender-constrained token (RFC 7800
// `cnf`: a DPoP key, RFC 9449, or a client certificate, RFC 8705) must never pass it
// as a bearer token: whoever stole it could use it here (redteam2 finding).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { jwtAuth, JwtAuthError, type JwtAuthEnv } from '../../src/hono/index.js';
import { claims, generate, mint, nowDate } from './jwt-mint.js';

async function setup() {
  const pair = await generate('HS256');
  const app = new Hono<JwtAuthEnv>();
  app.onError((err, c) => (err instanceof JwtAuthError ? err.getResponse() : c.text('boom', 500)));
  app.use('/api/*', jwtAuth({ algorithms: ['HS256'], key: pair.secret!, currentDate: nowDate, audience: 'api' }));
  app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }));
  const call = async (extra: Record<string, unknown>) => app.request('http://x/api/me', { headers: { authorization: `Bearer ${await mint(pair, claims(extra))}` } });
  return { call };
}

describe('edgejwt/hono and cnf', () => {
  it('hono_bound_token_never_bearer: a token whose cnf names a key (jkt, x5t#S256, jwk, or a cnf that is no object) is refused 401 invalid_token', async () => {
    const { call } = await setup();
    for (const cnf of [{ jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' }, { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' }, { jwk: { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' } }, 'jkt', []]) {
      const res = await call({ cnf });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    }
    // An unbound token and an empty cnf (names no key) still pass.
    expect((await call({})).status).toBe(200);
    expect((await call({ cnf: {} })).status).toBe(200);
  });
});
