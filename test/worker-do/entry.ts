// The test Worker's entry: the Durable Object classes under test, and one guard built
// once per isolate (as the default Worker keeps its guard) for the requests under
// /guarded/ and the revocation path, so a test can send it separate requests
// (exports.default.fetch): state that outlives a request must not hold a request's I/O.
import { defaultStages } from '../../src/worker/stages/index.js';
import { createGuard } from '../../src/worker/start.js';

export { RevocationList } from '../../src/worker/revocation/list-object.js';

/** The guard's config; its secrets are [vars] in test/worker-do/wrangler.toml. */
export const ENTRY_GUARD = {
  issuers: [{ issuer: 'https://hs.entry.test', audience: 'api', algorithms: ['HS256'], secretBinding: 'ENTRY_HS_KEY' }],
  origin: 'builtin:echo',
  revocation: {
    path: '/__guard/revocations',
    secretBinding: 'ENTRY_REVOCATION_SECRET',
    store: { durableObject: 'REVOCATIONS' },
  },
};

const guard = createGuard(ENTRY_GUARD, { stages: defaultStages });

export default {
  fetch(
    request: Request,
    env: Record<string, unknown>,
    ctx: { waitUntil(p: Promise<unknown>): void },
  ): Promise<Response> | Response {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/guarded/') || path === ENTRY_GUARD.revocation.path) return guard.fetch(request, env, ctx);
    return new Response('durable object tests only', { status: 404 });
  },
};
export { DpopReplayShard } from '../../src/worker/dpop-replay/shard-object.js';
