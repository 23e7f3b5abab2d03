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

// The guard's log lines (notices, counters, faults) are written after the response:
// workerd loads its console formatter on an isolate's first console.log (~2 ms
// measured by bench/isolate.ts), which a first request should not wait for.
let lines: string[] = [];
const deferredLog = (line: string): void => void lines.push(line);

function flushLog(ctx: WaitUntil): void {
  if (lines.length === 0) return;
  const out = lines;
  lines = [];
  ctx.waitUntil(
    new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      for (const line of out) console.log(line);
    }),
  );
}

function guardFor(env: GuardEnv): Promise<Guard> {
  let g = guards.get(env);
  if (g === undefined) {
    g = createGuard(env, { log: deferredLog });
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
      flushLog(ctx);
      // Every refused request logs the setting: a broken deploy must be loud, not quiet.
      const setting = e instanceof ConfigError ? e.setting : 'unknown';
      const message = e instanceof ConfigError ? e.message : 'guard failed to start';
      console.error(JSON.stringify({ edgejwt: 'config_error', setting, message }));
      return serverError();
    }
    try {
      return await guard.handle(request, ctx);
    } finally {
      flushLog(ctx);
    }
  },
  // Spelled out so the type of the default export needs no inference (JSR's check).
} satisfies WorkerHandler as WorkerHandler;

/** The route guard's Worker handler: what `export default` gives workerd. */
export type WorkerHandler = { fetch(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<Response> };
