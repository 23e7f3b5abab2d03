// The per-request cost of issue 36's resource-server parts, warm, in one interleaved run:
// - the RFC 9728 metadata answer (a Response from the JSON made once at start, as the stage serves it),
// - a 401 challenge header with resource_metadata, and the RFC 9470 step-up check (pass and refuse),
// - an introspection cache hit (SHA-256 of the token through the Wasm core, a Map lookup), the cost
//   an opaque token adds to every request after its first.
// Medians with p25–p75 over rounds; the machine and load are printed first. No timing is asserted.
// Run: npm run build && node bench/guard/resource-server.ts   (BENCH_SMOKE=1: seconds)
import { challengeHeader } from '../../dist/bearer/challenge.js';
import { createIntrospector } from '../../dist/introspection/client.js';
import { metadataJson, metadataResponse, metadataUrl } from '../../dist/resource/metadata.js';
import { checkStepUp } from '../../dist/resource/step-up.js';
import { compare, compareAsync, formatTable, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment();
printEnvironment(env);

const resource = { id: 'https://mcp.example.com/mcp', scopes: ['tools:read', 'tools:call'] };
const json = metadataJson(resource, ['https://as.example.com'], { algorithms: ['ES256', 'EdDSA'], required: false });
const resourceMetadata = metadataUrl(resource.id);
const now = Math.floor(Date.now() / 1000);
const claims = { iss: 'https://as.example.com', sub: 'u1', acr: 'mfa', auth_time: now - 60, exp: now + 600 };
const need = { acr: ['mfa'], maxAge: 300 };
const weaker = { ...claims, acr: 'pwd' };

// An endpoint that answers once: every measured call must be a cache hit.
let asked = 0;
const answer = JSON.stringify({ active: true, exp: now + 3600, scope: 'tools:read', client_id: 'c1' });
const introspector = createIntrospector({
  issuer: 'https://as.example.com',
  endpoint: 'https://as.example.com/introspect',
  clientId: 'guard',
  clientSecret: 'secret',
  cacheMs: 3_600_000,
  fetch: (async () => {
    asked++;
    return new Response(answer);
  }) as typeof fetch,
});
// A 43-character opaque token, as oidc-provider issues them.
const token = 'Sf3pQq0tEJ0x9vYH5m1a2b3c4d5e6f7g8h9i0jKLMNO';
await introspector.introspect(token);

const sync: Sample[] = compare([
  { name: 'metadata answer (GET, Response)', fn: () => metadataResponse(json, 'GET') },
  {
    name: 'challenge header with resource_metadata',
    fn: () => challengeHeader('invalid_token', { realm: 'api', resourceMetadata }),
  },
  { name: 'step-up check, pass', fn: () => checkStepUp(claims, need, now) },
  { name: 'step-up check, refuse (challenge parameters)', fn: () => checkStepUp(weaker, need, now) },
  { name: 'introspection cache hit, sync (cached)', fn: () => introspector.cached(token) },
]);
const async: Sample[] = await compareAsync([
  { name: 'introspection cache hit (introspect, awaited)', fn: () => introspector.introspect(token) },
]);
if (asked !== 1) throw new Error(`the endpoint was asked ${asked} times: not every call was a cache hit`);

const all = [...sync, ...async];
console.log(`\n${formatTable('Resource-server parts (issue 36), per call', all)}\n`);
console.log(`wrote ${writeResults('resource-server', { env, samples: all })}`);
