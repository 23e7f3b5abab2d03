// edgejwt/worker: the guard as a library, for Workers that embed it in their own
// fetch handler (`createGuard` with the stages they import), every stage, `defaultStages`,
// and (default export) the ready-made guard Worker. The guard's parsers are internals
// (tests import them from their modules).

export { createGuard, type GuardOptions } from './start.js';
export { defaultStages } from './stages/index.js';
export type { GuardStage, StageHooks, StageBuild, Identity } from './stage.js';
export type { RequestContext } from './context.js';
// Each stage, by folder; `defaultStages` holds them all, in chain order.
export { admin } from './stages/admin/index.js';
export { revocationAdmin } from './stages/revocation-admin/index.js';
export { resource } from './stages/resource/index.js';
export { observe } from './stages/observe/index.js';
export { cors } from './stages/cors/index.js';
export { path, reservedPaths } from './stages/path/index.js';
export { originAssertion } from './stages/origin-assertion/index.js';
export { route, rules } from './stages/route/index.js';
export { credentials, tokenSources } from './stages/credentials/index.js';
export { verify, kvTiers, remoteKeys, keySets } from './stages/verify/index.js';
export { introspection } from './stages/introspection/index.js';
export { claims } from './stages/claims/index.js';
export { dpop } from './stages/dpop/index.js';
export { mtls } from './stages/mtls/index.js';
export { senderConstraint } from './stages/sender-constraint/index.js';
export { revocation } from './stages/revocation/index.js';
export { forward, serviceOrigin, forwardPayload } from './stages/forward/index.js';
export type { AuthResult, EmbeddedGuard, GuardConfigSource } from './embed.js';
export type { WaitUntil } from './context.js';
export type { GuardConfigInput, IssuerInput, RuleInput, CorsInput, OriginAssertionInput } from './config-input.js';
export type { GuardEnv, GuardDeps } from './build.js';
export type { WorkerHandler } from './default-worker.js';
export { default } from './default-worker.js';
// An embedder that binds `dpop.replay` or `revocation.store` to a Durable Object exports the class from its own entry.
export { DpopReplayShard } from './dpop-replay/shard-object.js';
export { RevocationList } from './revocation/list-object.js';
