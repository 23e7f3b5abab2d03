// OIDC discovery against a fake IdP on 127.0.0.1 (test/fake-idp/): the document
// is fetched over a real socket, its issuer must equal the configured one
// exactly, jwks_uri must be https (or loopback), and the document is kept in KV.
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/worker/config.js';
import { hits, idpBase, serve } from '../fake-idp/client.js';
import { generate, mint, type KeyPair } from '../shared/jwt-mint.js';
import { CACHE_KEY, bearer, demoKeys, makeGuard, nowSeconds, type Keys } from './harness.js';

let rs: KeyPair;
let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
  rs = await generate('RS256');
});

/** A fresh issuer on the fake IdP: its discovery document and key set in place. */
async function issuerOnIdp(
  doc: (iss: string) => Record<string, unknown> = (iss) => ({ issuer: iss, jwks_uri: `${iss}/keys` }),
): Promise<string> {
  const path = `/disc-${crypto.randomUUID()}`;
  const iss = `${idpBase()}${path}`;
  await serve(`${path}/.well-known/openid-configuration`, {
    ...doc(iss),
    authorization_endpoint: `${iss}/authorize`,
    id_token_signing_alg_values_supported: ['RS256'],
  });
  await serve(
    `${path}/keys`,
    { keys: [{ ...rs.publicJwk, kid: 'k1', use: 'sig', alg: 'RS256' }] },
    { headers: { 'cache-control': 'max-age=600' } },
  );
  return iss;
}

function config(iss: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { issuers: [{ issuer: iss, audience: 'api', algorithms: ['RS256'], ...extra }], origin: 'builtin:echo' };
}

async function tokenFor(iss: string): Promise<string> {
  const t = nowSeconds();
  return mint(rs, { iss, aud: 'api', sub: 'disc-user', iat: t, exp: t + 600 }, { kid: 'k1', typ: 'JWT' });
}

const realFetch = ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)) as typeof fetch;

describe('OIDC discovery (fake IdP on loopback)', () => {
  it(
    'an issuer with no key source discovers jwks_uri and ' + 'verifies; a second isolate reads the document from KV',
    async () => {
      const iss = await issuerOnIdp();
      const path = new URL(iss).pathname;
      const a = await makeGuard(k, { config: config(iss), env: { CACHE_KEY }, deps: { fetch: realFetch } });
      const res = await a.send('/x', bearer(await tokenFor(iss)));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { headers: Record<string, string> }).headers['x-auth-sub']).toBe('disc-user');
      expect(await hits(`${path}/.well-known/openid-configuration`)).toBe(1);
      expect(await hits(`${path}/keys`)).toBe(1);

      const b = await makeGuard(k, { config: config(iss), env: { CACHE_KEY }, deps: { fetch: realFetch } });
      expect((await b.send('/x', bearer(await tokenFor(iss)))).status).toBe(200);
      // Both the document and the key set came from KV (sealed): the IdP saw no new request.
      expect(await hits(`${path}/.well-known/openid-configuration`)).toBe(1);
      expect(await hits(`${path}/keys`)).toBe(1);
    },
  );

  it('"discovery": true works the same', async () => {
    const iss = await issuerOnIdp();
    const g = await makeGuard(k, { config: config(iss, { discovery: true }), deps: { fetch: realFetch } });
    expect((await g.send('/x', bearer(await tokenFor(iss)))).status).toBe(200);
  });

  it(
    'a document whose issuer differs from the configured one (even by a trailing slash) is refused: 503 and a ' +
      'log line',
    async () => {
      const iss = await issuerOnIdp((i) => ({ issuer: `${i}/`, jwks_uri: `${i}/keys` }));
      const g = await makeGuard(k, { config: config(iss), deps: { fetch: realFetch } });
      const res = await g.send('/x', bearer(await tokenFor(iss)));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      const line = g.logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.edgejwt === 'discovery_refused');
      expect(line).toMatchObject({ issuer: iss, reason: 'issuer in the document differs from the configured issuer' });
      expect(await hits(`${new URL(iss).pathname}/keys`)).toBe(0);
    },
  );

  it('a look-alike issuer pointing jwks_uri at plain http off loopback is refused', async () => {
    const iss = await issuerOnIdp((i) => ({ issuer: i, jwks_uri: 'http://keys.example.com/jwks' }));
    const g = await makeGuard(k, { config: config(iss), deps: { fetch: realFetch } });
    expect((await g.send('/x', bearer(await tokenFor(iss)))).status).toBe(503);
    expect(g.logs.some((l) => l.includes('jwks_uri is not https'))).toBe(true);
  });

  it('an oversized document is refused unread', async () => {
    const iss = await issuerOnIdp((i) => ({ issuer: i, jwks_uri: `${i}/keys`, padding: 'x'.repeat(70_000) }));
    const g = await makeGuard(k, { config: config(iss), deps: { fetch: realFetch } });
    expect((await g.send('/x', bearer(await tokenFor(iss)))).status).toBe(503);
    expect(await hits(`${new URL(iss).pathname}/keys`)).toBe(0);
  });

  it('no document (404): 503, and the IdP is not asked again within the cooldown', async () => {
    const iss = `${idpBase()}/disc-missing-${crypto.randomUUID()}`;
    const g = await makeGuard(k, { config: config(iss), deps: { fetch: realFetch } });
    expect((await g.send('/x', bearer(await tokenFor(iss)))).status).toBe(503);
    expect((await g.send('/x', bearer(await tokenFor(iss)))).status).toBe(503);
    expect(await hits(`${new URL(iss).pathname}/.well-known/openid-configuration`)).toBe(1);
  });

  it('discovery needs an https issuer (http only on loopback) and exactly one issuer', () => {
    const setting = (c: unknown): string => {
      try {
        parseConfig(c);
        return 'OK';
      } catch (e) {
        return (e as ConfigError).setting;
      }
    };
    expect(setting(config('http://id.example.com'))).toBe('issuers[0].issuer');
    expect(setting(config('https://id.example.com'))).toBe('OK');
    expect(setting(config('http://127.0.0.1:9/x'))).toBe('OK');
    expect(
      setting({
        issuers: [
          { issuer: ['https://a.example.com', 'https://b.example.com'], audience: 'api', algorithms: ['RS256'] },
        ],
      }),
    ).toBe('issuers[0].issuer');
  });

  // Issue 22 item 2: headers arrive, the body never ends. One deadline covers the body,
  // for the request that started the fetch and for those joined on it: all are 503.
  it('guard_discovery_body_stall_answers_503', async () => {
    const iss = 'https://stall.example.com';
    // Each body drips one space then stalls for ever, and ignores the fetch's abort signal.
    const stalled = (): Response =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(new TextEncoder().encode('{"issuer": ')),
          pull: () => new Promise<void>(() => undefined),
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const stallingFetch = (async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith(`${iss}/.well-known/`)) return stalled();
      throw new TypeError(`unexpected fetch in test: ${url}`);
    }) as typeof fetch;
    const g = await makeGuard(k, {
      config: { ...config(iss), jwks: { timeoutMs: 300 } },
      deps: { fetch: stallingFetch },
    });
    const t = await tokenFor(iss);
    const statuses = await Promise.all(Array.from({ length: 4 }, () => g.send('/x', bearer(t)).then((r) => r.status)));
    expect(statuses).toEqual([503, 503, 503, 503]);
  });

  it('guard_jwks_body_stall_answers_503', async () => {
    const iss = await issuerOnIdp();
    const jwksUri = `${iss}/keys`;
    const stallingFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url === jwksUri) {
        return new Response(new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => undefined) }), {
          headers: { 'content-type': 'application/json' },
        });
      }
      return realFetch(input, init);
    }) as typeof fetch;
    const g = await makeGuard(k, {
      config: { ...config(iss), jwks: { timeoutMs: 300 } },
      deps: { fetch: stallingFetch },
    });
    const t = await tokenFor(iss);
    const statuses = await Promise.all(Array.from({ length: 4 }, () => g.send('/x', bearer(t)).then((r) => r.status)));
    expect(statuses).toEqual([503, 503, 503, 503]);
  });
});
