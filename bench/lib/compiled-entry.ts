// The guard's compiled entry (`edgejwt build-guard`, src/cli/guard-entry.ts) for a bench
// config: the CLI's entry writer bundled for Node once, then run on the config, and the
// entry it writes bundled as Wrangler would (bench/lib/workerd-bundle.ts). `src`: another
// checkout's src/ (its entry writer and its guard), for a before/after.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { bundleWorker, type WorkerBundle } from './workerd-bundle.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

type EntryWriter = (raw: unknown, from?: string) => { code: string; features: string[] };
const writers = new Map<string, EntryWriter>();

async function entryWriter(src: string): Promise<EntryWriter> {
  let w = writers.get(src);
  if (w !== undefined) return w;
  const outfile = join(root, 'build/bench-compiled', `writer-${writers.size}.mjs`);
  await build({ entryPoints: [join(src, 'cli/guard-entry.ts')], outfile, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning', alias: { '#core-loader': join(src, 'wasm/load-bytes.ts'), '#crypto-backend': join(src, 'backend/node.ts'), '#platform': join(src, 'platform/node.ts') } });
  w = ((await import(pathToFileURL(outfile).href)) as { guardEntry: EntryWriter }).guardEntry;
  writers.set(src, w);
  return w;
}

/** The compiled entry for `rawConfig`, minified as the bench bundles every Worker, written to `dir` (entry.js, worker.js). */
/** `from`: the module the entry imports compiledWorker from (src/worker/compiled.ts; a bench's instrumented stand-in). */
export async function compiledBundle(dir: string, rawConfig: unknown, src = join(root, 'src'), extra: { minify?: boolean; keepNames?: boolean } = { minify: true }, from = join(src, 'worker/compiled.ts')): Promise<WorkerBundle & { features: string[] }> {
  mkdirSync(dir, { recursive: true });
  const entry = (await entryWriter(src))(rawConfig, from);
  const entryFile = join(dir, 'entry.js');
  writeFileSync(entryFile, entry.code);
  const b = await bundleWorker(entryFile, join(dir, 'worker.js'), extra, src);
  return { ...b, features: entry.features };
}

/** The one-issuer inline-key HS256 config the size target of issue 23 is about (a secret binding, echo origin). */
export const ONE_ISSUER_HS256 = {
  issuers: [{ issuer: 'https://hs256.issuer.bench.invalid', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' }],
  origin: 'builtin:echo',
  cache: { jwks: false },
};
