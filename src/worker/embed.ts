// The guard inside your own Worker: the handler the Worker entry uses (`fetch`) and
// `authenticate`, which decides without forwarding so your code can run after a
// verified request. How the Guard is started is the caller's (`createGuard`, start.ts).

import type { JWTPayload } from '../claims.js';
import type { JoseHeader } from '../header.js';
import type { GuardDeps, GuardEnv } from './parts.js';
import { ConfigError } from './config-error.js';
import type { GuardConfigInput } from './config-input.js';
import type { Guard, WaitUntil } from './runner.js';
import { serverError } from './responses.js';
import { SelfTestFailure } from './self-test.js';

/**
 * The configuration: the GUARD_CONFIG object (or its JSON text), or a function of the Worker's env.
 *
 * @example
 * const source: GuardConfigSource = (env) => ({
 *   issuers: [
 *     {
 *       issuer: 'https://id.example.com',
 *       audience: String(env.API_AUDIENCE),
 *       algorithms: ['RS256'],
 *       jwksUrl: 'https://id.example.com/jwks',
 *     },
 *   ],
 * });
 */
export type GuardConfigSource = GuardConfigInput | string | ((env: GuardEnv) => GuardConfigInput | string);

/**
 * What `authenticate` resolves to. `payload` is undefined on an anonymous pass (public path, auth "none"/"optional"
 * without a token).
 *
 * @example
 * const auth: AuthResult = await guard.authenticate(request, env, ctx);
 * if (!auth.ok) return auth.response;
 * const who = auth.payload?.sub ?? 'anonymous';
 */
export type AuthResult =
  | { ok: true; payload: JWTPayload; header: JoseHeader; issuer: string }
  | { ok: true; payload: undefined; header: undefined; issuer: undefined }
  | { ok: false; response: Response };

/**
 * The guard made by `createGuard`: the whole Worker (`fetch`) or the decision alone (`authenticate`).
 *
 * @example
 * const guard: EmbeddedGuard = createGuard();
 * export default { fetch: guard.fetch };
 */
export interface EmbeddedGuard {
  /** The whole guard: refuse, or forward to the configured origin. */
  fetch(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<Response>;
  /**
   * Verify and apply the rules, without forwarding: the identity, or the exact 400/401/403/500/503 the guard would
   * send.
   */
  authenticate(request: Request, env: GuardEnv, ctx: WaitUntil): Promise<AuthResult>;
  /**
   * Build the guard now, from the module-scope env (`import { env } from 'cloudflare:workers'`), so a fresh isolate's
   * first request does not: Cloudflare evaluates a Worker's module while the client's TLS handshake is still under way.
   * It first runs a known-answer verify of one HS256 token and a tampered copy (the Wasm core's SHA-256 and HMAC, and
   * the header, payload and claims code every algorithm shares); it does not test EdDSA, RS*, PS* or ES*, whatever the
   * config uses, and adds HS384 / HS512 only for a config that uses them. A config whose issuers all list algorithms
   * other than HS* and EdDSA skips it: that guard never runs the Wasm core it tests. If it fails, every request is
   * refused with a 500 (`self-test`). Call `warm` at module scope only: in a request it adds that work to the request.
   * A request whose env holds the same bindings uses this guard; if building here failed for another reason (a call
   * the module scope does not allow), the request builds its own.
   *
   * @example
   * import { env } from 'cloudflare:workers';
   * const guard = createGuard(config);
   * guard.warm(env);
   */
  warm(env: GuardEnv): void;
}

/** The raw config a source gives for one env. */
export function rawConfigOf(config: GuardConfigSource | undefined, env: GuardEnv): unknown {
  return config === undefined ? env.GUARD_CONFIG : typeof config === 'function' ? config(env) : config;
}

/** Starts the Guard for one env (throws ConfigError on a bad configuration). */
export type GuardStarter = (env: GuardEnv, deps: GuardDeps | undefined) => Promise<Guard>;

/**
 * The EmbeddedGuard around a starter, with the known-answer check `warm` runs before it (swappable: tests prove a
 * failed one fails closed).
 *
 * @example
 * const guard = embeddedGuard((env, deps) => startGuard(env, deps), undefined, selfTest);
 */
export function embeddedGuard(
  start: GuardStarter,
  deps: GuardDeps | undefined,
  check: (env: GuardEnv) => Promise<void>,
): EmbeddedGuard {
  const host = guardHost(start, deps, check);
  return {
    warm: host.warm,
    fetch: host.fetch,
    async authenticate(request, env, ctx) {
      let guard: Guard;
      try {
        guard = await host.guardFor(env);
      } catch (e) {
        return { ok: false, response: host.failed(e, ctx) };
      }
      let o;
      try {
        o = await guard.authenticate(request, ctx);
      } finally {
        host.flush(ctx);
      }
      if (!o.ok) return { ok: false, response: o.response };
      if (o.anonymous) return { ok: true, payload: undefined, header: undefined, issuer: undefined };
      return { ok: true, payload: o.payload, header: o.header(), issuer: o.issuer };
    },
  };
}

/** The guard per env (warmed or built), the 500 of one that failed to start, and the deferred log. */
interface GuardHost extends Pick<EmbeddedGuard, 'warm' | 'fetch'> {
  guardFor(env: GuardEnv): Promise<Guard>;
  failed(e: unknown, ctx: WaitUntil): Response;
  flush(ctx: WaitUntil): void;
}

function guardHost(
  start: GuardStarter,
  deps: GuardDeps | undefined,
  check: (env: GuardEnv) => Promise<void>,
): GuardHost {
  // Without a log of the caller's, the guard's log lines (notices, counters, faults) are
  // written after the response: workerd loads its console formatter on an isolate's first
  // console.log (~2 ms measured by bench/guard/isolate.ts), which a first request should not wait for.
  // Lines are only ever held back without a log of the caller's, so flushLog is a no-op with one.
  let lines: string[] = [];
  const guardDeps: GuardDeps | undefined =
    deps?.log === undefined ? { ...deps, log: (line: string) => void lines.push(line) } : deps;
  const flushLog = (ctx: WaitUntil): void => {
    if (lines.length === 0) return;
    const out = lines;
    lines = [];
    ctx.waitUntil(
      // Named: bench/lib/profile.ts attributes its CPU to "after the response".
      new Promise((resolve) => setTimeout(resolve, 0)).then(function writeDeferredLog() {
        for (const line of out) console.log(line);
      }),
    );
  };
  // The bindings object is stable for an isolate; a new one (tests, reloads) gets a new guard.
  const guards = new WeakMap<object, Promise<Guard>>();
  const build = (env: GuardEnv): Promise<Guard> => Promise.resolve().then(() => start(env, guardDeps));
  const checkedBuild = (env: GuardEnv): Promise<Guard> => check(env).then(() => build(env));
  // The guard built by `warm`, and the env it was built from: a request's env is another
  // object than the module-scope one, holding the same bindings.
  let warmed: { env: GuardEnv; guard: Promise<Guard> } | undefined;
  const guardFor = (env: GuardEnv): Promise<Guard> => {
    let g = guards.get(env);
    if (g === undefined) {
      // A guard that failed to build at module scope (a call not allowed there) is built again here,
      // so the request sees exactly what building in a request gives.
      // A failed self-test is final: the guard must not serve on broken crypto.
      // A guard not warmed with these bindings runs the known-answer check too: no way round it.
      g =
        warmed !== undefined && sameBindings(warmed.env, env)
          ? warmed.guard.catch((e) => (e instanceof SelfTestFailure ? Promise.reject(e) : build(env)))
          : checkedBuild(env);
      guards.set(env, g);
    }
    return g;
  };
  const log = deps?.log ?? ((line: string) => console.error(line));
  const failed = (e: unknown, ctx: WaitUntil): Response => {
    flushLog(ctx);
    // Every refused request logs the setting: a broken deploy must be loud, not quiet.
    const setting = e instanceof ConfigError ? e.setting : 'unknown';
    const message = e instanceof ConfigError ? e.message : 'guard failed to start';
    log(JSON.stringify({ edgejwt: 'config_error', setting, message }));
    return serverError();
  };
  return {
    warm(env) {
      // The known-answer verify first: it also compiles the verify path the first request takes.
      const guard = checkedBuild(env);
      // A failed build is settled by the first request that adopts it; until then it is no unhandled rejection.
      guard.catch(() => undefined);
      warmed = { env, guard };
    },
    async fetch(request, env, ctx) {
      let guard: Guard;
      try {
        guard = await guardFor(env);
      } catch (e) {
        return failed(e, ctx);
      }
      try {
        return await guard.handle(request, ctx);
      } finally {
        flushLog(ctx);
      }
    },
    guardFor,
    failed,
    flush: flushLog,
  };
}

/** Whether two env objects hold the same bindings (same names, identical values). */
function sameBindings(a: GuardEnv, b: GuardEnv): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  for (const name of names) if (a[name] !== b[name]) return false;
  return true;
}
