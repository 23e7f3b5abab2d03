// edgejwt/worker: the guard as a library, for Workers that embed it in their own
// fetch handler (`createGuard`), and (default export) the ready-made guard Worker.
// Only these are public; the guard's stages and parsers are internals (tests import
// them from their modules).

export { createGuard } from './start.js';
export type { AuthResult, EmbeddedGuard, GuardConfigSource } from './embed.js';
export type { WaitUntil } from './context.js';
export type { GuardConfigInput, IssuerInput, RuleInput, CorsInput, OriginAssertionInput } from './config-input.js';
export type { GuardEnv, GuardDeps } from './build.js';
export type { WorkerHandler } from './default-worker.js';
export { default } from './default-worker.js';
