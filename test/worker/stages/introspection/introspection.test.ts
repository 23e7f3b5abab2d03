// The guard's introspection stage (issue 36, RFC 7662) in workerd, against a local fake
// endpoint: answers it cannot use are 503 (never a pass), well-formed answers whose claims
// fail are 401 as a JWT's, the caches (L1, negative, KV) last as documented, one request is
// in flight per token, and one deadline covers the whole exchange.
import { beforeAll, describe, expect, it } from 'vitest';
import { createGuard, introspection, keySets, remoteKeys } from '../../../../src/worker/api.js';
import { parseConfig } from '../../../../src/worker/config.js';
import { dpopClient, dpopInit, proof } from '../dpop/dpop-helpers.js';
import {
  AUD,
  CACHE_KEY,
  ISS,
  ORIGIN,
  TestCtx,
  bearer,
  demoKeys,
  jwksOf,
  makeGuard,
  mockNet,
  token,
} from '../../harness.js';
import type { Keys, Made, Net } from '../../harness.js';

const ENDPOINT = 'https://id.example.com/oauth/introspect';
const OPAQUE = 'opaque-token-2YotnFZFEjr1zCsicMWpAA';
const T0 = 1_900_000_000_000;
/** A key thumbprint no request proves. */
const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

/** The fake endpoint: what it answers next, and every request it got. */
interface Endpoint {
  answer: (body: URLSearchParams) => Response | Promise<Response>;
  calls: { authorization: string | null; body: URLSearchParams }[];
}

function withEndpoint(net: Net, ep: Endpoint): Net {
  const inner = net.fetch;
  net.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.url !== ENDPOINT) return inner(input, init);
    const body = new URLSearchParams(await req.text());
    ep.calls.push({ authorization: req.headers.get('authorization'), body });
    return ep.answer(body);
  }) as typeof fetch;
  return net;
}

const active = (extra: Record<string, unknown> = {}) => {
  return { active: true, iss: ISS, aud: AUD, exp: T0 / 1000 + 3600, scope: 'read', sub: 'alice', ...extra };
};

type Json = Record<string, unknown>;
interface GuardOpts {
  answer?: Endpoint['answer'];
  introspection?: Json;
  issuer?: Json;
  extra?: Json;
  env?: Json;
  clock?: { t: number };
}

async function guardWith(opts: GuardOpts = {}) {
  const ep: Endpoint = { answer: opts.answer ?? (() => Response.json(active())), calls: [] };
  const clock = opts.clock ?? { t: T0 };
  const introspection = { endpoint: ENDPOINT, clientId: 'guard', secretBinding: 'AS_SECRET', ...opts.introspection };
  const config = {
    issuers: [
      { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: `${ISS}/jwks`, introspection, ...opts.issuer },
    ],
    forwardClaims: { sub: 'X-Auth-Sub' },
    origin: ORIGIN,
    ...opts.extra,
  };
  const net = withEndpoint(mockNet(jwksOf(k.ed)), ep);
  const env = { AS_SECRET: 's3cret', ...opts.env };
  const g = await makeGuard(k, { config, net, env, deps: { now: () => clock.t } });
  return { g, ep, clock };
}

const originCalls = (g: Made): number => g.net.calls.filter((c) => c.url.startsWith(ORIGIN)).length;
const lastCode = (g: Made): string | undefined => {
  const line = g.logs.filter((l) => l.includes('"code"')).at(-1) ?? '{}';
  return (JSON.parse(line) as { code?: string }).code;
};

describe('introspection: the exchange', () => {
  it('introspection_posts_client_secret_basic_to_the_configured_endpoint_only', async () => {
    const { g, ep } = await guardWith();
    const headers = { authorization: `Bearer ${OPAQUE}`, host: 'evil.example', 'x-forwarded-host': 'evil.example' };
    const res = await g.send('/x', { headers });
    expect(res.status).toBe(200);
    expect(ep.calls).toHaveLength(1);
    expect(ep.calls[0]!.authorization).toBe(`Basic ${btoa('guard:s3cret')}`);
    expect(ep.calls[0]!.body.get('token')).toBe(OPAQUE);
    // Nothing of the request chose where the guard asked.
    expect(g.net.calls.filter((c) => !c.url.startsWith(ORIGIN)).map((c) => c.url)).toEqual([]);
    expect(((await res.json()) as { headers: Record<string, string> }).headers['x-auth-sub']).toBe('alice');
  });

  it('introspection_never_sees_a_jwt: a compact JWS goes to the verifier', async () => {
    const { g, ep } = await guardWith();
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    expect(ep.calls).toHaveLength(0);
  });

  it('introspection_answer_without_sub_forwards_no_subject_header', async () => {
    const { g } = await guardWith({ answer: () => Response.json(active({ sub: undefined, client_id: 'svc' })) });
    const res = await g.send('/x', bearer(OPAQUE));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { headers: Record<string, string> }).headers['x-auth-sub']).toBeUndefined();
  });
});

describe('introspection: answers the guard cannot use are 503, never a pass', () => {
  const huge = JSON.stringify({ ...active(), pad: 'x'.repeat(70_000) });
  const cases: [string, () => Response][] = [
    ['not_json', () => new Response('<html>ok</html>', { status: 200 })],
    ['huge', () => new Response(huge, { status: 200 })],
    ['active_as_string', () => Response.json(active({ active: 'true' }))],
    ['missing_exp', () => Response.json(active({ exp: undefined }))],
    ['another_issuers_iss', () => Response.json(active({ iss: 'https://evil.example' }))],
    ['server_error', () => new Response('down', { status: 500 })],
    ['redirect', () => new Response(null, { status: 302, headers: { location: 'https://evil.example/introspect' } })],
    ['credentials_refused', () => new Response('{"error":"invalid_client"}', { status: 401 })],
  ];
  it.each(cases)('introspection_unusable_answer_is_503: %s', async (_name, answer) => {
    const { g } = await guardWith({ answer });
    const res = await g.send('/x', bearer(OPAQUE));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(originCalls(g)).toBe(0);
    const line = g.logs.find((l) => l.includes('"edgejwt":"unavailable"'));
    expect(line).toMatch(/ERR_INTROSPECTION_(FAILED|INVALID)/);
    expect(g.logs.join('\n')).not.toContain(OPAQUE);
  });

  it('introspection_endpoint_fault_is_not_remembered: the next request asks again', async () => {
    let up = false;
    const answer = () => (up ? Response.json(active()) : new Response('', { status: 503 }));
    const { g, ep } = await guardWith({ answer });
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(503);
    up = true;
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    expect(ep.calls).toHaveLength(2);
  });
});

describe("introspection: well-formed answers are checked as a JWT's claims (401)", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['inactive', { active: false }, 'ERR_INTROSPECTION_INACTIVE'],
    ['expired', active({ exp: T0 / 1000 - 10 }), 'ERR_JWT_EXPIRED'],
    ['not_yet_valid', active({ nbf: T0 / 1000 + 600 }), 'ERR_JWT_NOT_YET_VALID'],
    ['another_audience', active({ aud: 'https://other.example' }), 'ERR_JWT_CLAIM_INVALID'],
    ['bound_to_a_key_not_proven', active({ cnf: { jkt: JKT } }), 'unproven_confirmation'],
  ];
  it.each(cases)('introspection_claims_refused: %s', async (_name, body, code) => {
    const { g } = await guardWith({ answer: () => Response.json(body) });
    const res = await g.send('/x', bearer(OPAQUE));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(lastCode(g)).toBe(code);
    expect(originCalls(g)).toBe(0);
  });

  it("introspection_rules_scopes_apply: a rule's scope missing from the answer is 403", async () => {
    const { g } = await guardWith({ extra: { rules: [{ pathPrefix: '/admin', scopes: ['admin'] }] } });
    expect((await g.send('/admin', bearer(OPAQUE))).status).toBe(403);
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
  });
});

describe('introspection: the stages after verify run on the answer', () => {
  it('introspection_dpop_bound_answer_passes_with_a_proof_for_the_opaque_token', async () => {
    const client = await dpopClient('ES256');
    const clock = { t: Date.now() };
    const { g } = await guardWith({
      clock,
      answer: () => Response.json(active({ cnf: { jkt: client.jkt } })),
      issuer: { dpop: 'required' },
      extra: { dpop: { replay: 'isolate' } },
      introspection: { cacheMs: 60_000 },
    });
    const url = 'https://api.example.com/x';
    expect((await g.send('/x', dpopInit(OPAQUE, await proof(client, 'GET', url, OPAQUE)))).status).toBe(200);
    // The proof must hash this token (ath): one made for another token is refused, cached answer or not.
    expect((await g.send('/x', dpopInit(OPAQUE, await proof(client, 'GET', url, 'another-token')))).status).toBe(401);
  });

  it('introspection_answer_goes_through_revocation: its jti revoked is 401 revoked, from L1 too', async () => {
    const revocation = { path: '/__revoke', secretBinding: 'REVOCATION_SECRET', store: 'isolate' };
    const answer = () => Response.json(active({ jti: 'opaque-1' }));
    const { g, ep } = await guardWith({ answer, extra: { revocation }, env: { REVOCATION_SECRET: 'r'.repeat(32) } });
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    const body = JSON.stringify({ jti: 'opaque-1', exp: T0 / 1000 + 3600 });
    const added = await g.send('/__revoke', { method: 'POST', body, headers: { 'x-guard-admin': 'r'.repeat(32) } });
    expect(added.status).toBe(200);
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(401);
    expect(lastCode(g)).toBe('revoked');
    expect(ep.calls).toHaveLength(1);
  });
});

describe('introspection: caching, single flight, deadline', () => {
  it('introspection_active_answer_cached_for_cacheMs_then_asked_again', async () => {
    const { g, ep, clock } = await guardWith({ introspection: { cacheMs: 10_000 } });
    for (let i = 0; i < 3; i++) expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    expect(ep.calls).toHaveLength(1);
    clock.t += 9_999;
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    expect(ep.calls).toHaveLength(1);
    clock.t += 2;
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    expect(ep.calls).toHaveLength(2);
  });

  it('introspection_active_answer_never_cached_past_exp', async () => {
    const answer = () => Response.json(active({ exp: T0 / 1000 + 5 }));
    const { g, ep, clock } = await guardWith({ answer, introspection: { cacheMs: 600_000 } });
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    clock.t += 5_000;
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(401);
    expect(lastCode(g)).toBe('ERR_JWT_EXPIRED');
    expect(ep.calls).toHaveLength(2);
  });

  it('introspection_cacheMs_0_asks_every_time', async () => {
    const { g, ep } = await guardWith({ introspection: { cacheMs: 0 } });
    for (let i = 0; i < 3; i++) expect((await g.send('/x', bearer(OPAQUE))).status).toBe(200);
    expect(ep.calls).toHaveLength(3);
  });

  it('introspection_inactive_answer_cached_five_seconds', async () => {
    const { g, ep, clock } = await guardWith({ answer: () => Response.json({ active: false }) });
    for (let i = 0; i < 3; i++) expect((await g.send('/x', bearer(OPAQUE))).status).toBe(401);
    expect(ep.calls).toHaveLength(1);
    clock.t += 5_000;
    expect((await g.send('/x', bearer(OPAQUE))).status).toBe(401);
    expect(ep.calls).toHaveLength(2);
  });

  it('introspection_single_flight: concurrent requests with one token make one call', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { g, ep } = await guardWith({ answer: async () => (await gate, Response.json(active())) });
    const all = Promise.all(Array.from({ length: 5 }, () => g.send('/x', bearer(OPAQUE))));
    await new Promise((r) => setTimeout(r, 20));
    release();
    expect((await all).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(ep.calls).toHaveLength(1);
  });

  it('introspection_one_deadline_over_the_answer: a body that never ends is 503 within timeoutMs', async () => {
    const head = new TextEncoder().encode('{"active":');
    const stalled = () => new Response(new ReadableStream({ start: (c) => c.enqueue(head) }), { status: 200 });
    const { g } = await guardWith({ answer: stalled, introspection: { timeoutMs: 200 } });
    const started = performance.now();
    const res = await g.send('/x', bearer(OPAQUE));
    expect(res.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(lastCode(g)).toBe('ERR_INTROSPECTION_FAILED');
  });

  it('introspection_answer_sealed_in_kv_for_another_isolate_within_cacheMs_only', async () => {
    const clock = { t: T0 + 1_000 };
    const opts = { clock, introspection: { cacheMs: 60_000 }, extra: { cache: { verify: 'all' } }, env: { CACHE_KEY } };
    const token = `${OPAQUE}-${crypto.randomUUID()}`;
    const first = await guardWith(opts);
    expect((await first.g.send('/x', bearer(token))).status).toBe(200);
    expect(first.ep.calls).toHaveLength(1);
    // Another isolate, same KV: the sealed answer, no call.
    const second = await guardWith(opts);
    expect((await second.g.send('/x', bearer(token))).status).toBe(200);
    expect(second.ep.calls).toHaveLength(0);
    expect(second.g.guard.counters.get('l2_hit')).toBe(1);
    // Past the answer's cacheMs bucket the KV entry is not read: a third isolate asks.
    clock.t += 60_000;
    const third = await guardWith(opts);
    expect((await third.g.send('/x', bearer(token))).status).toBe(200);
    expect(third.ep.calls).toHaveLength(1);
  });

  it('introspection_kv_answer_kept_in_l1_no_longer_than_its_bucket', async () => {
    // cacheMs buckets of 60 s: T0 + 1 s lies in the bucket that ends at T0 + 20 s.
    const clock = { t: T0 + 1_000 };
    const opts = { clock, introspection: { cacheMs: 60_000 }, extra: { cache: { verify: 'all' } }, env: { CACHE_KEY } };
    const token = `${OPAQUE}-${crypto.randomUUID()}`;
    const first = await guardWith(opts);
    expect((await first.g.send('/x', bearer(token))).status).toBe(200);
    const second = await guardWith(opts);
    expect((await second.g.send('/x', bearer(token))).headers.get('server-timing')).toContain('desc="l2"');
    // Within the bucket L1 answers; past its end (the answer's exp and cacheMs still ahead) the isolate asks.
    clock.t = T0 + 19_000;
    expect((await second.g.send('/x', bearer(token))).headers.get('server-timing')).toContain('desc="l1"');
    clock.t = T0 + 21_000;
    expect((await second.g.send('/x', bearer(token))).status).toBe(200);
    expect(second.ep.calls).toHaveLength(1);
  });

  it('introspection_inactive_verdict_in_the_isolate_costs_no_kv_read', async () => {
    const answer = () => Response.json({ active: false });
    const opts = { answer, extra: { cache: { verify: 'all' } }, env: { CACHE_KEY } };
    const { g, ep } = await guardWith(opts);
    const token = `${OPAQUE}-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) expect((await g.send('/x', bearer(token))).status).toBe(401);
    expect(ep.calls).toHaveLength(1);
    expect(g.guard.counters.get('l2_miss')).toBe(1);
  });
});

describe('introspection: configuration', () => {
  const issuer = (name: string, introspection?: Json) => {
    const jwksUrl = `${name}/jwks`;
    return { issuer: name, audience: AUD, algorithms: ['EdDSA'], jwksUrl, ...(introspection && { introspection }) };
  };
  const section = (endpoint: string) => ({ endpoint, clientId: 'guard', secretBinding: 'S' });

  it('introspection_at_most_one_issuer: a second is refused naming it', () => {
    const issuers = [
      issuer('https://a.example', section('https://a.example/i')),
      issuer('https://b.example', section('https://b.example/i')),
    ];
    const raw = { issuers, origin: ORIGIN };
    expect(() => parseConfig(raw)).toThrow(expect.objectContaining({ setting: 'issuers[1].introspection' }));
  });

  it('introspection_endpoint_https_or_loopback_http_only', () => {
    const raw = (endpoint: string) => ({ issuers: [issuer('https://a.example', section(endpoint))], origin: ORIGIN });
    const setting = 'issuers[0].introspection.endpoint';
    expect(() => parseConfig(raw('http://as.example/introspect'))).toThrow(expect.objectContaining({ setting }));
    expect(() => parseConfig(raw('http://127.0.0.1:9000/introspect'))).not.toThrow();
  });

  it('introspection_stage_not_given_fails_closed: 500 naming the setting; given it, a token passes', async () => {
    const lines: string[] = [];
    const endpoint = withEndpoint(mockNet(jwksOf(k.ed)), { answer: () => Response.json(active()), calls: [] });
    const config = {
      issuers: [{ ...issuer(ISS, section(ENDPOINT)) }],
      origin: ORIGIN,
    };
    const env = { S: 'secret' };
    const token = `${OPAQUE}-${crypto.randomUUID()}`;
    const request = () => new Request('https://api.example.com/x', bearer(token));
    const without = createGuard(config as never, { stages: [keySets, remoteKeys], log: (l) => lines.push(l) });
    expect((await without.fetch(request(), env, new TestCtx())).status).toBe(500);
    const setting = (JSON.parse(lines.find((l) => l.includes('config_error'))!) as { setting: string }).setting;
    expect(setting).toBe('issuers[0].introspection');
    const stages = [keySets, remoteKeys, introspection];
    const given = createGuard(config as never, { stages, fetch: endpoint.fetch });
    expect((await given.fetch(request(), env, new TestCtx())).status).toBe(200);
  });

  it('introspection_secret_missing_fails_closed: the guard does not start, naming the setting', async () => {
    // (createGuard answers each request 500 with this line: test/node/introspection-guard-oidc-provider.test.ts.)
    const named = /issuers\[0\]\.introspection\.secretBinding: the secret is not set/;
    await expect(guardWith({ env: { AS_SECRET: undefined } })).rejects.toThrow(named);
    await expect(guardWith({ env: { AS_SECRET: '' } })).rejects.toThrow(/introspection\.secretBinding/);
  });
});
