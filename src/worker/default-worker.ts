// The one default guard Worker, reading GUARD_CONFIG: the `export default` of both
// the Worker entry (index.ts, wrangler.toml `main`) and `edgejwt/worker` (api.ts).
// It is built at module scope from the importable env, so in production the build
// runs during the client's TLS handshake (docs/decisions/0007-guard-built-at-module-scope.md).

import type { EmbeddedGuard } from './embed.js';
import { defaultStages } from './stages/index.js';
import { createGuard } from './start.js';

/**
 * The route guard's Worker handler: what `export default` gives workerd.
 *
 * @example
 * const handler: WorkerHandler = { fetch: createGuard(undefined, { stages: defaultStages }).fetch };
 */
export type WorkerHandler = { fetch: EmbeddedGuard['fetch'] };

const guard = createGuard(undefined, { stages: defaultStages });
// Dynamic: outside workerd (Node, tests) the import fails and the guard is built on the first request.
// Without GUARD_CONFIG there is nothing to build (every request answers the config error):
// a Worker that imports edgejwt/worker without bundling this module away pays nothing.
void import('cloudflare:workers').then(
  (m: { env: Record<string, unknown> }) => {
    if (m.env.GUARD_CONFIG !== undefined) guard.warm(m.env);
  },
  () => undefined,
);

/**
 * The guard Worker itself: `export { default } from 'edgejwt/worker'`.
 *
 * @example
 * export { default } from 'edgejwt/worker';
 */
// Spelled out so the type of the default export needs no inference (JSR's check).
const worker: WorkerHandler = { fetch: guard.fetch };
export default worker;
