// edgejwt/worker: the guard as a library, for Workers that embed it in their own
// fetch handler (`createGuard` with the stages they import), every stage, `defaultStages`,
// and (default export) the ready-made guard Worker. The guard's parsers are internals
// (tests import them from their modules).

export { createGuard, type GuardOptions } from './start.js';
export { defaultStages } from './features/all.js';
export type { GuardStage } from './features/registry.js';
// Each stage a config may need; `defaultStages` holds them all.
export { kvTiers } from './features/kv-tiers.js';
export { remoteKeys } from './features/remote-keys.js';
export { originAssertion } from './features/origin-assertion.js';
export { dpop } from './features/dpop.js';
export { mtls } from './features/mtls.js';
export { revocation } from './features/revocation.js';
export { keySets } from './features/key-sets.js';
export { cors } from './features/cors.js';
export { admin } from './features/admin.js';
export { rules } from './features/rules.js';
export { tokenSources } from './features/token-sources.js';
export { serviceOrigin } from './features/service-origin.js';
export { forwardPayload } from './features/forward-payload.js';
export { resource } from './features/resource.js';
export { introspection } from './features/introspection.js';
export type { AuthResult, EmbeddedGuard, GuardConfigSource } from './embed.js';
export type { WaitUntil } from './context.js';
export type { GuardConfigInput, IssuerInput, RuleInput, CorsInput, OriginAssertionInput } from './config-input.js';
export type { GuardEnv, GuardDeps } from './build.js';
export type { WorkerHandler } from './default-worker.js';
export { default } from './default-worker.js';
// An embedder that binds `dpop.replay` or `revocation.store` to a Durable Object exports the class from its own entry.
export { DpopReplayShard } from './dpop-replay/shard-object.js';
export { RevocationList } from './revocation/list-object.js';
