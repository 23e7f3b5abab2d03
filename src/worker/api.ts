// edgejwt/worker: the guard as a library, for Workers that embed it in their own
// fetch handler, and (default export) the ready-made guard Worker.
import { createGuard } from './embed.js';

export { createGuard } from './embed.js';
export type { AuthResult, EmbeddedGuard, GuardConfigSource } from './embed.js';
export { startGuard, Guard } from './guard.js';
export type { WaitUntil, AuthOutcome } from './guard.js';
export { parseConfig, ConfigError, ECHO_ORIGIN, L2_DEFAULT_ALGORITHMS } from './config.js';
export type { GuardConfig } from './config.js';
export type { GuardConfigInput } from './config-input.js';
export type { GuardEnv, GuardDeps } from './build.js';

/**
 * The guard Worker itself, reading GUARD_CONFIG: `export { default } from 'edgejwt/worker'`.
 * @example export { default } from 'edgejwt/worker';
 */
const worker: { fetch: ReturnType<typeof createGuard>['fetch'] } = { fetch: createGuard().fetch };
export default worker;
