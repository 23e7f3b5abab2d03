// The route guard Worker (wrangler.toml `main`): the default Worker of
// default-worker.ts, the same one `edgejwt/worker` exports.
//
// workerd treats every named export of the entry module as an entrypoint, so only
// the handler and the Durable Object classes a config can bind are exported here:
// `DpopReplayShard` for `dpop.replay: { durableObject }` and `RevocationList` for
// `revocation.store: { durableObject }` (wrangler.toml binds each by class name).
// Embedders import `edgejwt/worker` (api.ts) instead.

export { default } from './default-worker.js';
export type { WorkerHandler } from './default-worker.js';
export { DpopReplayShard } from './dpop-replay/shard-object.js';
export { RevocationList } from './revocation/list-object.js';
