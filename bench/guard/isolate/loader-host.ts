// Starts a fresh isolate per new id with the Worker Loader binding and passes
// the request to it; the code of each kind and its env come from the host's own
// bindings. Only what the isolate bench needs.
import { ownBytes } from './own-bytes.ts';

interface Env {
  LOADER: { get(id: string, code: () => unknown): { getEntrypoint(): { fetch(r: Request): Promise<Response> } } };
  SOURCES: string;
  CORE_WASM: ArrayBuffer;
  /** The baseline's core (BENCH_BASELINE_SRC), for the base and libbase kinds. */
  BASE_CORE_WASM?: ArrayBuffer;
  GUARD_CONFIG: string;
  HS_KEY: string;
  /** '1': every isolate gets the same .wasm bytes (see ownBytes). */
  SHARED_WASM?: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const kind = request.headers.get('x-bench-kind')!;
    const id = request.headers.get('x-bench-isolate')!;
    const worker = env.LOADER.get(id, () => {
      const sources = JSON.parse(env.SOURCES) as Record<string, string>;
      const modules: Record<string, unknown> = { 'worker.js': sources[kind] };
      // The guard imports its Wasm core as a compiled module, as in a deploy (isolate-ab.ts's kinds are guards too);
      // the baseline kinds (BENCH_BASELINE_SRC) on the baseline's own core, whose exports may differ.
      const core =
        (kind === 'base' || kind === 'libbase') && env.BASE_CORE_WASM !== undefined
          ? env.BASE_CORE_WASM
          : env.CORE_WASM;
      if (kind !== 'noop' && kind !== 'jose')
        modules[sources.wasmPath!] = { wasm: env.SHARED_WASM === '1' ? core : ownBytes(core, id).buffer };
      return {
        compatibilityDate: '2026-04-01',
        mainModule: 'worker.js',
        modules,
        env: { GUARD_CONFIG: env.GUARD_CONFIG, HS_KEY: env.HS_KEY },
      };
    });
    return worker.getEntrypoint().fetch(request);
  },
};
