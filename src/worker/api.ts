// edgejwt/worker: the guard as a library, for Workers that embed it in their own
// fetch handler (`createGuard` with the stages they import), every stage, `defaultStages`,
// and (default export) the ready-made guard Worker. The guard's parsers are internals
// (tests import them from their modules).

export { createGuard, type GuardOptions } from './start.js';
// `defaultStages` and each stage by name (every stage is a folder of ./stages/, listed in its index.ts).
export * from './stages/index.js';
export type { GuardStage, StageHooks, StageBuild, Identity } from './stage.js';
export type { RequestContext } from './context.js';
export type { AuthResult, EmbeddedGuard, GuardConfigSource } from './embed.js';
export type { WaitUntil } from './context.js';
export type { GuardConfigInput, IssuerInput, RuleInput, CorsInput, OriginAssertionInput } from './config-input.js';
export type { GuardEnv, GuardDeps } from './build.js';
export type { WorkerHandler } from './default-worker.js';
export { default } from './default-worker.js';
// An embedder that binds `dpop.replay` or `revocation.store` to a Durable Object exports the class from its own entry.
export { DpopReplayShard } from './dpop-replay/shard-object.js';
export { RevocationList } from './revocation/list-object.js';
