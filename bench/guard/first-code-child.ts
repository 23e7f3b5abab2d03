// One fresh Node process's first request through a Worker bundle of the isolate bench,
// for first-code.ts: the bundle's `cloudflare:workers` import resolves to its env, its
// .wasm import to a compiled WebAssembly.Module (as workerd's CompiledWasm rule gives),
// and V8's precise coverage (function granularity) runs from the import to the response.
// Writes the coverage of the bundle as JSON to a file: `startup` (the import and what its module
// scope started, settled) and `functions` (the request alone; counts reset in between). Args: bundle file, token, env
// JSON, out file.
import { Session } from 'node:inspector/promises';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { writeFileSync } from 'node:fs';

const [file, token, envJson, outFile] = process.argv.slice(2) as [string, string, string, string];
(globalThis as { __benchEnv?: unknown }).__benchEnv = JSON.parse(envJson);
const hooks =
  `
export async function resolve(spec, ctx, next) {
  if (spec === 'cloudflare:workers') return { url: 'bench:cloudflare-workers', shortCircuit: true };
  return next(spec, ctx);
}
export async function load(url, ctx, next) {
  if (url === 'bench:cloudflare-workers') return { format: 'module', shortCircuit: true, ` +
  `source: 'export const env = globalThis.__benchEnv; export class DurableObject {} export class WorkerEntrypoint {}' };
  if (url.endsWith('.wasm')) return { format: 'module', shortCircuit: true, ` +
  `source: 'import { readFileSync } from "node:fs"; ` +
  `export default new WebAssembly.Module(readFileSync(new URL(' + JSON.stringify(url) + ')));' };
  return next(url, ctx);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const url = pathToFileURL(file).href;
const mod = (await import(url)) as { default: { fetch(r: Request, env: unknown, ctx: unknown): Promise<Response> } };
// What the module scope started (warm: build, self-test, rehearsal) settles before the request,
// as it does in workerd before a fresh process's first request; taking the coverage resets its counts.
for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
const startup = (await session.post('Profiler.takePreciseCoverage')).result.find((s) => s.url === url);
const ctx = {
  waitUntil(p: Promise<unknown>) {
    p.catch(() => undefined);
  },
  passThroughOnException() {},
};
const res = await mod.default.fetch(
  new Request('https://w.bench.invalid/api/orders', { headers: { authorization: `Bearer ${token}` } }),
  (globalThis as { __benchEnv?: unknown }).__benchEnv,
  ctx,
);
await res.text();
const { result } = await session.post('Profiler.takePreciseCoverage');
const script = result.find((s) => s.url === url);
writeFileSync(
  outFile,
  JSON.stringify({ status: res.status, startup: startup?.functions ?? null, functions: script?.functions ?? null }),
);
session.disconnect();
