// The route guard Worker (wrangler.toml `main`). One guard per isolate, built on
// the first request from GUARD_CONFIG; a bad configuration answers 500 and logs
// the setting to fix.
//
// Only the handler is exported: workerd treats every named export of the entry
// module as an entrypoint. Embedders import `edgejwt/worker` (api.ts) instead.

import { createGuard } from './embed.js';

const guard = createGuard();
// Build from the module-scope env: in production the module is evaluated during the
// client's TLS handshake, before the first request arrives (docs/architecture.md, "Cold start").
void import('cloudflare:workers').then((m: { env: Record<string, unknown> }) => guard.warm(m.env), () => undefined);

/** The route guard's Worker handler: what `export default` gives workerd. */
export type WorkerHandler = { fetch: ReturnType<typeof createGuard>['fetch'] };

// Spelled out so the type of the default export needs no inference (JSR's check).
export default { fetch: guard.fetch } satisfies WorkerHandler as WorkerHandler;
