// The route guard Worker. One guard per isolate, built on the first request from
// the environment; a bad configuration answers 500 and logs the setting to fix.

import { ConfigError } from './config.js';
import { createGuard, type Guard, type WaitUntil } from './guard.js';
import type { GuardEnv } from './build.js';
import { serverError } from './responses.js';

// Only the handler is exported: workerd treats every named export of the entry
// module as an entrypoint. Embedders import ./api.js instead.

// The bindings object is stable for an isolate; a new one (tests, reloads) gets a new guard.
const guards = new WeakMap<object, Promise<Guard>>();

function guardFor(env: GuardEnv): Promise<Guard> {
  let g = guards.get(env);
  if (g === undefined) {
    g = createGuard(env);
    guards.set(env, g);
  }
  return g;
}

export default {
  async fetch(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<Response> {
    let guard: Guard;
    try {
      guard = await guardFor(env);
    } catch (e) {
      // Every refused request logs the setting: a broken deploy must be loud, not quiet.
      const setting = e instanceof ConfigError ? e.setting : 'unknown';
      const message = e instanceof ConfigError ? e.message : 'guard failed to start';
      console.error(JSON.stringify({ edgejwt: 'config_error', setting, message }));
      return serverError();
    }
    return guard.handle(request, ctx);
  },
  // Spelled out so the type of the default export needs no inference (JSR's check).
} satisfies WorkerHandler as WorkerHandler;

/** The route guard's Worker handler: what `export default` gives workerd. */
export type WorkerHandler = { fetch(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<Response> };
