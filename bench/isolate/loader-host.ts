// Starts a fresh isolate per new id with the Worker Loader binding and passes
// the request to it; the code of each kind and its env come from the host's own
// bindings. Only what the isolate bench needs.
interface Env {
  LOADER: { get(id: string, code: () => unknown): { getEntrypoint(): { fetch(r: Request): Promise<Response> } } };
  SOURCES: string;
  CORE_WASM: ArrayBuffer;
  GUARD_CONFIG: string;
  HS_KEY: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const kind = request.headers.get('x-bench-kind')!;
    const id = request.headers.get('x-bench-isolate')!;
    const worker = env.LOADER.get(id, () => {
      const sources = JSON.parse(env.SOURCES) as Record<string, string>;
      const modules: Record<string, unknown> = { 'worker.js': sources[kind] };
      // The guard imports its Wasm core as a compiled module, as in a deploy.
      if (kind === 'guard' || kind === 'lib' || kind === 'base') modules[sources.wasmPath!] = { wasm: env.CORE_WASM };
      return { compatibilityDate: '2026-04-01', mainModule: 'worker.js', modules, env: { GUARD_CONFIG: env.GUARD_CONFIG, HS_KEY: env.HS_KEY } };
    });
    return worker.getEntrypoint().fetch(request);
  },
};
