// The route guard Worker (wrangler.toml `main`): the default Worker of
// default-worker.ts, the same one `edgejwt/worker` exports.
//
// Only the handler and the guard's Durable Object classes are exported: workerd
// treats every named export of the entry module as an entrypoint, and a Durable
// Object class must be one to be bound (wrangler.toml `[[durable_objects.bindings]]`).
// Embedders import `edgejwt/worker` (api.ts) instead.

export { default } from './default-worker.js';
export type { WorkerHandler } from './default-worker.js';
// The revocation list (`revocation.store: { durableObject }`, docs/deploy.md).
export { RevocationList } from './revocation/list-object.js';
