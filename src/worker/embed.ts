// The guard inside your own Worker: `createGuard(config?)` gives the handler the
// Worker entry uses (`fetch`) and `authenticate`, which decides without
// forwarding so your code can run after a verified request.

import type { JWTPayload } from '../claims.js';
import type { JoseHeader } from '../header.js';
import type { GuardDeps, GuardEnv } from './build.js';
import { ConfigError } from './config.js';
import type { GuardConfigInput } from './config-input.js';
import { startGuard, type Guard, type WaitUntil } from './guard.js';
import { serverError } from './responses.js';

/** The configuration: the GUARD_CONFIG object (or its JSON text), or a function of the Worker's env. */
export type GuardConfigSource = GuardConfigInput | string | ((env: GuardEnv) => GuardConfigInput | string);

/** What `authenticate` resolves to. `payload` is undefined on an anonymous pass (public path, auth "none"/"optional" without a token). */
export type AuthResult =
  | { ok: true; payload: JWTPayload; header: JoseHeader; issuer: string }
  | { ok: true; payload: undefined; header: undefined; issuer: undefined }
  | { ok: false; response: Response };

export interface EmbeddedGuard {
  /** The whole guard: refuse, or forward to the configured origin. */
  fetch(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<Response>;
  /** Verify and apply the rules, without forwarding: the identity, or the exact 400/401/403/500/503 the guard would send. */
  authenticate(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<AuthResult>;
}

/**
 * Build the guard for a Worker. Without `config`, GUARD_CONFIG is read from the env.
 * One guard is built per env object (per isolate in production) and reused.
 * @example
 * import { createGuard } from 'edgejwt/worker';
 * const guard = createGuard({ issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }] });
 * export default {
 *   async fetch(request, env, ctx) {
 *     const auth = await guard.authenticate(request, env, ctx);
 *     if (!auth.ok) return auth.response;
 *     return Response.json({ hello: auth.payload?.sub ?? 'anonymous' });
 *   },
 * };
 */
export function createGuard(config?: GuardConfigSource, deps?: GuardDeps): EmbeddedGuard {
  // The bindings object is stable for an isolate; a new one (tests, reloads) gets a new guard.
  const guards = new WeakMap<object, Promise<Guard>>();
  const guardFor = (env: GuardEnv): Promise<Guard> => {
    let g = guards.get(env);
    if (g === undefined) {
      g = Promise.resolve().then(() => startGuard(env, deps, config === undefined ? env.GUARD_CONFIG : typeof config === 'function' ? config(env) : config));
      guards.set(env, g);
    }
    return g;
  };
  const log = deps?.log ?? ((line: string) => console.error(line));
  const failed = (e: unknown): Response => {
    // Every refused request logs the setting: a broken deploy must be loud, not quiet.
    const setting = e instanceof ConfigError ? e.setting : 'unknown';
    const message = e instanceof ConfigError ? e.message : 'guard failed to start';
    log(JSON.stringify({ edgejwt: 'config_error', setting, message }));
    return serverError();
  };
  return {
    async fetch(request, env, ctx) {
      let guard: Guard;
      try {
        guard = await guardFor(env);
      } catch (e) {
        return failed(e);
      }
      return guard.handle(request, ctx);
    },
    async authenticate(request, env, ctx) {
      let guard: Guard;
      try {
        guard = await guardFor(env);
      } catch (e) {
        return { ok: false, response: failed(e) };
      }
      const o = await guard.authenticate(request, ctx);
      if (!o.ok) return { ok: false, response: o.response };
      if (o.anonymous) return { ok: true, payload: undefined, header: undefined, issuer: undefined };
      return { ok: true, payload: o.payload, header: o.header(), issuer: o.issuer };
    },
  };
}
