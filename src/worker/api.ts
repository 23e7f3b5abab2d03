// The guard as a library, for Workers that embed it in their own fetch handler
// (the Worker entry, index.ts, may export nothing but its handler).
export { createGuard, Guard } from './guard.js';
export type { WaitUntil } from './guard.js';
export { parseConfig, ConfigError, ECHO_ORIGIN, L2_DEFAULT_ALGORITHMS } from './config.js';
export type { GuardConfig } from './config.js';
export type { GuardEnv, GuardDeps } from './build.js';
