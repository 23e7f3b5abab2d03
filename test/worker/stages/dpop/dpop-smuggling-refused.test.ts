// Adversarial probes of the DPoP stage through the whole guard:
// every way a bound token or a proof could be smuggled past it. Each must be refused
// (or, for the spellings RFC 9449 §4.3 lets a server normalise, accepted as the same URL).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  baseConfig,
  bearer,
  demoKeys,
  ISS,
  AUD,
  JWKS_URL,
  makeGuard,
  token,
  type Keys,
  type Made,
} from '../../harness.js';
import { dpopClient, dpopInit, proof, type DpopClient } from './dpop-helpers.js';

const API = 'https://api.example.com';
let k: Keys;
let client: DpopClient;

function config(mode: 'required' | 'allowed', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return baseConfig(k, {
    issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA', 'RS256'], jwksUrl: JWKS_URL, dpop: mode }],
    dpop: { replay: 'isolate' },
    ...extra,
  });
}

const bound = (extra: Record<string, unknown> = {}) =>
  token(k.ed, { cnf: { jkt: client.jkt }, jti: crypto.randomUUID(), ...extra });

async function status(g: Made, path: string, init: RequestInit): Promise<number> {
  return (await g.send(path, init)).status;
}

beforeAll(async () => {
  k = await demoKeys();
  client = await dpopClient('ES256');
});

describe('DPoP: a bound token or proof is never smuggled past the stage', () => {
  it(
    'dpop_bound_token_from_cookie_or_custom_header_refused: a bound token read from a cookie or another ' +
      'header, even beside a valid proof, is never accepted',
    async () => {
      for (const mode of ['allowed', 'required'] as const) {
        const g = await makeGuard(k, {
          config: config(mode, {
            tokenSources: [{ header: 'X-Token' }, { cookie: 'session' }, { header: 'Authorization' }],
          }),
        });
        const at = await bound();
        const p = await proof(client, 'GET', `${API}/x`, at);
        expect(await status(g, '/x', { headers: { cookie: `session=${at}`, dpop: p } }), `${mode} cookie`).toBe(401);
        const p2 = await proof(client, 'GET', `${API}/x`, at);
        expect(await status(g, '/x', { headers: { 'x-token': at, dpop: p2 } }), `${mode} header`).toBe(401);
        expect(
          await status(g, '/x', {
            headers: { 'x-token': `DPoP ${at}`, dpop: await proof(client, 'GET', `${API}/x`, at) },
          }),
          `${mode} header DPoP`,
        ).not.toBe(200);
      }
    },
  );

  it(
    'dpop_scheme_spellings: tab, comma lists and Bearer+DPoP never pass; case and extra spaces are the same ' +
      'scheme',
    async () => {
      const g = await makeGuard(k, { config: config('required') });
      const at = await bound();
      const send = async (authorization: string) =>
        status(g, '/x', { headers: { authorization, dpop: await proof(client, 'GET', `${API}/x`, at) } });
      expect(await send(`DPoP\t${at}`)).not.toBe(200);
      expect(await send(`Bearer ${at}, DPoP ${at}`)).not.toBe(200);
      expect(await send(`DPoP ${at}, Bearer ${at}`)).not.toBe(200);
      expect(await send(`DPoP ${at} x`)).not.toBe(200);
      expect(await send(`DPOP ${at}`)).toBe(200);
      expect(await send(`DPoP   ${at}`)).toBe(200);
      // An empty or blank DPoP header is no proof.
      expect(await status(g, '/x', { headers: { authorization: `DPoP ${at}`, dpop: '' } })).toBe(401);
      expect(await status(g, '/x', { headers: { authorization: `DPoP ${at}`, dpop: '   ' } })).toBe(401);
    },
  );

  it(
    'dpop_htu_spellings: another scheme, port, host (trailing dot, other name), path case or path are refused; ' +
      'case of scheme and host, the default port, query and fragment are the same URL',
    async () => {
      const g = await makeGuard(k, { config: config('required') });
      const send = async (htu: string, path = '/a/b') => {
        const at = await bound();
        return status(g, path, dpopInit(at, await proof(client, 'GET', htu, at)));
      };
      for (const htu of [
        `http://api.example.com/a/b`,
        `${API}:8443/a/b`,
        `https://api.example.com./a/b`,
        `https://evil.example.com/a/b`,
        `${API}/A/b`,
        `${API}/a/b/`,
        `${API}/a`,
        `${API}/a%2Fb`,
        `${API}/a/b/..`,
        `https://user@api.example.com/a/b`,
        `/a/b`,
        '',
      ]) {
        expect(await send(htu), htu).toBe(401);
      }
      for (const htu of [
        `HTTPS://API.EXAMPLE.COM/a/b`,
        `${API}:443/a/b`,
        `${API}/a/b?x=1`,
        `${API}/a/b#f`,
        `${API}/%61/b`,
      ]) {
        expect(await send(htu), htu).toBe(200);
      }
      // A Host header naming another host does not change what the proof must name.
      const at = await bound();
      const init = dpopInit(at, await proof(client, 'GET', 'https://evil.example.com/a/b', at));
      (init.headers as Headers).set('host', 'evil.example.com');
      expect(await status(g, '/a/b', init)).toBe(401);
    },
  );

  it(
    'dpop_htm_and_iat_edges: htm in another case, an iat past ' + 'the window or beyond the clock tolerance is refused',
    async () => {
      const g = await makeGuard(k, { config: config('required', { dpop: { replay: 'isolate', maxAgeSeconds: 30 } }) });
      const now = Math.floor(Date.now() / 1000);
      const send = async (o: Parameters<typeof proof>[4], method = 'POST') => {
        const at = await bound();
        return status(g, '/x', dpopInit(at, await proof(client, method, `${API}/x`, at, o), { method, body: 'x' }));
      };
      expect(await send({ htm: 'post' })).toBe(401);
      expect(await send({ htm: 'POST ' })).toBe(401);
      expect(await send({ iat: now + 10 })).toBe(401);
      expect(await send({ iat: now - 30 - 5 - 3 })).toBe(401);
      expect(await send({ iat: now - 20 })).toBe(200);
    },
  );

  it(
    'dpop_bound_token_from_l1_as_bearer_refused: a bound token the guard verified (L1) and then presented as ' +
      'Bearer, with or without the proof header, is refused',
    async () => {
      for (const mode of ['allowed', 'required'] as const) {
        const g = await makeGuard(k, { config: config(mode) });
        const at = await bound();
        expect(await status(g, '/x', dpopInit(at, await proof(client, 'GET', `${API}/x`, at)))).toBe(200);
        const res = await g.send('/x', bearer(at));
        expect(res.status).toBe(401);
        expect(res.headers.get('server-timing')).toContain('desc="l1"');
        const withProof = bearer(at);
        (withProof.headers as Record<string, string>).dpop = await proof(client, 'GET', `${API}/x`, at);
        expect(await status(g, '/x', withProof)).toBe(401);
      }
    },
  );

  it(
    'dpop_odd_cnf_refused: cnf.jkt not a string, cnf with another member beside a proven jkt, a proof key of ' +
      'kty oct or alg none',
    async () => {
      const g = await makeGuard(k, { config: config('allowed') });
      const send = async (at: string, o: Parameters<typeof proof>[4] = {}) =>
        status(g, '/x', dpopInit(at, await proof(client, 'GET', `${API}/x`, at, o)));
      expect(await send(await token(k.ed, { cnf: { jkt: 5 } }))).toBe(401);
      expect(await send(await token(k.ed, { cnf: { jkt: [client.jkt] } }))).toBe(401);
      expect(await send(await token(k.ed, { cnf: { jkt: client.jkt, jwk: client.jwk } }))).toBe(401);
      expect(
        await send(
          await token(k.ed, { cnf: { jkt: client.jkt, 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' } }),
        ),
      ).toBe(401);
      expect(await send(await bound(), { jwk: { kty: 'oct', k: 'AAAA' } })).toBe(401);
      const at = await bound();
      const part = (v: object) => btoa(JSON.stringify(v)).replace(/=+$/, '');
      const claims = { htm: 'GET', htu: `${API}/x`, iat: Math.floor(Date.now() / 1000), jti: 'n1' };
      const none = `${part({ alg: 'none', typ: 'dpop+jwt', jwk: client.jwk })}.${part(claims)}.`;
      expect(await status(g, '/x', dpopInit(at, none))).toBe(401);
    },
  );

  it(
    'dpop_replay_other_spelling_refused: a used proof sent again with another query or an equivalent URL ' +
      'spelling is a replay',
    async () => {
      const g = await makeGuard(k, { config: config('required') });
      const at = await bound();
      const p = await proof(client, 'GET', `${API}/x`, at);
      expect(await status(g, '/x?a=1', dpopInit(at, p))).toBe(200);
      expect(await status(g, '/x?a=2', dpopInit(at, p))).toBe(401);
      expect(await status(g, '/%78', dpopInit(at, p))).toBe(401);
      expect(g.logs.some((l) => l.includes('"code":"dpop_replayed"'))).toBe(true);
    },
  );
});
