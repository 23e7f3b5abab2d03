// Cases run inside workerd (bench/guard/resource-workerd.ts): issue 36's resource stage per
// warm request, on an HS256 guard with `resource` set, L1 on (every timed token check is an L1
// hit, so what differs between cases is the stage's own work), a stub origin:
// - the RFC 9728 metadata answer (GET of the well-known path through guard.handle);
// - the decision on an L1 hit under a rule with acr + maxAge and under the same rule without
//   them: the difference is the RFC 9470 step-up check per request;
// - an MCP tools/call POST (a JSON-RPC body) through guard.handle with an L1 hit;
// - a 401 (no token) with and without `resource`: the resource_metadata edit of the challenge;
// - on a second guard (built through edgejwt/worker's createGuard, its issuer also set for
//   introspection), an opaque token's L1 hit and the same guard's L1 hit of the HS256 JWT: the
//   difference is what an introspected answer costs per request over a JWT once cached.
import { parseHeader } from '../../src/header.ts';
import { checkStepUp } from '../../src/resource/step-up.ts';
import { startGuard } from '../../src/worker/start.ts';
import { createGuard, defaultStages, type GuardConfigInput } from '../../src/worker/api.ts';
import type { WorkerCase } from '../lib/workerd.ts';

const enc = new TextEncoder();
const b64u = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const ISS = 'https://issuer.bench.invalid';
const ID = 'https://mcp.bench.invalid/mcp';
const RULES = [
  { pathPrefix: '/mcp/step', scopes: ['mcp:tools'], acr: ['urn:bench:mfa'], maxAge: 600 },
  { pathPrefix: '/mcp', scopes: ['mcp:tools'] },
];
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' } },
});

export default async function setup(): Promise<WorkerCase[]> {
  const ctx = { waitUntil() {} };
  const stub = () => Promise.resolve(new Response('ok'));
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: ISS, aud: ID, sub: 'agent-1', scope: 'mcp:tools', acr: 'urn:bench:mfa', auth_time: now - 10 };
  const input =
    `${b64u(enc.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })))}.` +
    `${b64u(enc.encode(JSON.stringify({ ...claims, iat: now, exp: now + 3600 })))}`;
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const token = `${input}.${b64u(new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(input))))}`;
  const issuers = [{ issuer: ISS, algorithms: ['HS256'], secretBinding: 'HS_KEY' }];
  const config = { issuers, rules: RULES, origin: 'https://origin.bench.invalid', cache: { verify: false } };
  const env = { HS_KEY: b64u(secret), GUARD_CONFIG: { ...config, resource: { id: ID, scopes: ['mcp:tools'] } } };
  // The same guard without `resource`: the issuer then names the audience itself.
  const plainConfig = { ...config, issuers: [{ ...issuers[0], audience: ID }] };
  const deps = { fetch: stub, log: () => undefined };
  const guard = await startGuard(env as never, deps, undefined, defaultStages);
  const plain = await startGuard({ ...env, GUARD_CONFIG: plainConfig } as never, deps, undefined, defaultStages);
  const base = 'https://mcp.bench.invalid';
  const auth = { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' };
  const get = (g: typeof guard, path: string, headers: Record<string, string> = {}) =>
    g.handle(new Request(base + path, { headers }), ctx);
  const post = () =>
    new Request(`${base}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: CALL,
    });
  // Every case is checked once (and the L1 filled) before it is timed.
  const expect = async (res: Response | Promise<Response>, status: number, what: string) => {
    const r = await res;
    if (r.status !== status) throw new Error(`${what}: ${r.status}, expected ${status}`);
  };
  await expect(get(guard, '/.well-known/oauth-protected-resource/mcp'), 200, 'metadata');
  for (const path of ['/mcp/step', '/mcp'])
    if (!(await guard.authenticate(new Request(base + path, { headers: auth }), ctx)).ok) throw new Error(path);
  await expect(guard.handle(post(), ctx), 200, 'tools/call');
  await expect(get(guard, '/mcp'), 401, '401 with resource');
  await expect(get(plain, '/mcp'), 401, '401 without resource');
  const opaque = await opaqueCases(env.HS_KEY, token, claims);
  const drained = async (res: Promise<Response>) => void (await (await res).arrayBuffer());
  return [
    {
      name: 'metadata GET through guard.handle',
      fn: () => drained(get(guard, '/.well-known/oauth-protected-resource/mcp')),
      async: true,
    },
    {
      name: 'authenticate (L1 hit), rule with acr + maxAge',
      fn: () => guard.authenticate(new Request(`${base}/mcp/step`, { headers: auth }), ctx),
      async: true,
    },
    {
      name: 'authenticate (L1 hit), rule with scopes only',
      fn: () => guard.authenticate(new Request(`${base}/mcp`, { headers: auth }), ctx),
      async: true,
    },
    {
      name: 'MCP tools/call POST through guard.handle (L1 hit, stub origin)',
      fn: () => drained(guard.handle(post(), ctx)),
      async: true,
    },
    { name: '401 through guard.handle, resource set', fn: () => drained(get(guard, '/mcp')), async: true },
    { name: '401 through guard.handle, no resource', fn: () => drained(get(plain, '/mcp')), async: true },
    { name: 'part checkStepUp alone', fn: () => checkStepUp(claims, { acr: ['urn:bench:mfa'], maxAge: 600 }, now, 0) },
    ...opaque,
  ];
}

/** A JOSE header parse as the guard tries it for authenticate's answer; undefined when it throws. */
function headerAttempt(token: string): unknown {
  try {
    return parseHeader(token, token.indexOf('.')).header;
  } catch {
    return undefined;
  }
}

/** The introspection endpoint; the guard allows http on loopback. Only the stub fetch below answers it. */
const ENDPOINT = 'http://127.0.0.1/introspect';
const OPAQUE = 'opaque-bench-2YotnFZFEjr1zCsicMWpAA';

/**
 * The opaque token's L1 hit and the JWT's, on one guard whose issuer verifies HS256 and introspects opaque tokens.
 * The stub endpoint answers `active: true` once (setup fills the L1; cacheMs and the answer's exp are an hour,
 * verifyTtl a day); asked again it fails, so a timed request that missed the L1 would throw, not pass.
 */
async function opaqueCases(hsKey: string, token: string, claims: Record<string, unknown>): Promise<WorkerCase[]> {
  let asked = 0;
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    if (req.url !== ENDPOINT) return new Response('ok');
    if (++asked > 1) return new Response('asked twice', { status: 500 });
    return Response.json({ ...claims, active: true, exp, token_type: 'Bearer' });
  };
  const introspection = { endpoint: ENDPOINT, clientId: 'bench', secretBinding: 'AS_SECRET', cacheMs: 3_600_000 };
  const config: GuardConfigInput = {
    issuers: [{ issuer: ISS, algorithms: ['HS256'], secretBinding: 'HS_KEY', introspection }],
    rules: RULES,
    origin: 'https://origin.bench.invalid',
    resource: { id: ID, scopes: ['mcp:tools'] },
    cache: { verify: false, verifyTtl: 86_400 },
  };
  const guard = createGuard(config, { stages: defaultStages, fetch, log: () => undefined });
  const env = { HS_KEY: hsKey, AS_SECRET: 'bench-secret' };
  const ctx = { waitUntil() {} };
  const url = 'https://mcp.bench.invalid/mcp';
  const hit = (bearer: string, what: string) => async () => {
    const r = await guard.authenticate(new Request(url, { headers: { authorization: `Bearer ${bearer}` } }), env, ctx);
    if (!r.ok) throw new Error(`${what}: ${r.response.status}, not an L1 hit`);
  };
  // The whole Worker path as well: only authenticate hands back the JOSE header (parsed on an L1 hit).
  const forwarded = (bearer: string, what: string) => async () => {
    const r = await guard.fetch(new Request(url, { headers: { authorization: `Bearer ${bearer}` } }), env, ctx);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${what}: ${r.status}, not an L1 hit`);
  };
  const cases = [
    { name: 'authenticate, opaque token (introspection L1 hit)', fn: hit(OPAQUE, 'opaque token'), async: true },
    { name: 'authenticate, HS256 JWT (L1 hit), same guard', fn: hit(token, 'JWT'), async: true },
    {
      name: 'guard.fetch, opaque token (introspection L1 hit, stub origin)',
      fn: forwarded(OPAQUE, 'opaque'),
      async: true,
    },
    { name: 'guard.fetch, HS256 JWT (L1 hit, stub origin), same guard', fn: forwarded(token, 'JWT'), async: true },
    // What authenticate does to hand back a header an opaque token has none of: a parse that throws, caught.
    { name: 'part header parse of the opaque token (throws, caught)', fn: () => headerAttempt(OPAQUE) },
    { name: 'part header parse of the JWT', fn: () => headerAttempt(token) },
  ];
  for (const c of cases) await c.fn();
  await cases[0]!.fn();
  if (asked !== 1) throw new Error(`the endpoint was asked ${asked} times, expected once`);
  return cases;
}
