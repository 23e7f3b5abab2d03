// The edgejwt guard Worker of bench/guard/cold-local.ts: the default guard Worker
// (src/worker/default-worker.ts, built at module scope from the importable env) with
// one addition, a count of the reads of the JWKS_CACHE KV binding, answered in the
// `x-bench-kv-reads` header of every response (reads since this isolate started).
import { env as moduleEnv } from 'cloudflare:workers';
import { defaultStages } from '../../src/worker/stages/index.ts';
import { createGuard } from '../../src/worker/start.ts';

type Env = Record<string, unknown>;
interface KvGet {
  get(key: string, ...rest: unknown[]): Promise<unknown>;
}

let kvReads = 0;
// One wrapper per binding object, so the module-scope env and a request's env still hold the same bindings.
const wrapped = new WeakMap<object, object>();
function counting(kv: KvGet): KvGet {
  let w = wrapped.get(kv) as KvGet | undefined;
  if (w === undefined) {
    w = new Proxy(kv, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (name === 'get') return (...args: [string, ...unknown[]]) => (kvReads++, target.get(...args));
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    wrapped.set(kv, w);
  }
  return w;
}
const withCount = (env: Env): Env =>
  env.JWKS_CACHE === undefined ? env : { ...env, JWKS_CACHE: counting(env.JWKS_CACHE as KvGet) };

const guard = createGuard(undefined, { stages: defaultStages });
const warmEnv = withCount(moduleEnv as Env);
guard.warm(warmEnv);

export default {
  // The module-scope env (counted) stands for the request's: the same bindings, so the warmed guard serves.
  async fetch(request: Request, _env: Env, ctx: Parameters<typeof guard.fetch>[2]): Promise<Response> {
    const res = await guard.fetch(request, warmEnv, ctx);
    const out = new Response(res.body, res);
    out.headers.set('x-bench-kv-reads', String(kvReads));
    return out;
  },
};
