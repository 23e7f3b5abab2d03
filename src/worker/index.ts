// The route guard Worker (wrangler.toml `main`): the default Worker of
// default-worker.ts, the same one `edgejwt/worker` exports.
//
// Only the handler is exported: workerd treats every named export of the entry
// module as an entrypoint. Embedders import `edgejwt/worker` (api.ts) instead.

export { default } from './default-worker.js';
export type { WorkerHandler } from './default-worker.js';
