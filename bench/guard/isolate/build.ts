// Bundles the isolate bench's Workers with esbuild, as wrangler would: the guard
// from src/worker/ with the package's workerd aliases and its Wasm core as a
// compiled module beside the bundle (the library-only Worker likewise); the
// no-op and the jose guard as they are.
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { CORE_WASM, bundleWorker } from '../../lib/workerd-bundle.ts';
import { configGuardBundle } from '../../lib/config-guard-entry.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));

export interface Bundle {
  dir: string;
  file: string;
  code: string;
  /** The guard's import specifier of its .wasm (relative to the bundle), if any. */
  wasmImport?: string;
}

export { CORE_WASM };

const ENTRIES = {
  guard: join(root, 'src/worker/index.ts'),
  lib: join(here, 'edgejwt-min.ts'),
  jose: join(here, 'jose-guard.ts'),
  noop: join(here, 'noop.ts'),
  base: '',
  libbase: '',
};

/** The core a baseline src/ was built with (its generated/ copied in beside it), else this checkout's. */
export function baselineCore(src: string): string {
  const own = join(src, 'wasm/generated/core.wasm');
  return existsSync(own) ? own : CORE_WASM;
}

/**
 * `base` / `libbase`: the guard / the library-only Worker from another checkout's src/
 * (`src`) with that checkout's core, for a before/after in one run. The library-only
 * Worker imports src/ relatively, so it is copied next to a copy of that src/.
 */
export async function bundle(name: keyof typeof ENTRIES, src?: string): Promise<Bundle> {
  const dir = join(root, 'build/bench-isolate', name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'worker.js');
  const baseline = (name === 'base' || name === 'libbase') && src !== undefined ? resolve(src) : undefined;
  let entry = name === 'base' ? join(baseline ?? join(root, 'src'), 'worker/index.ts') : ENTRIES[name];
  let srcForAliases = baseline;
  if (name === 'libbase') {
    if (baseline === undefined) throw new Error('libbase needs a baseline src/');
    const copy = join(root, 'build/bench-isolate/libbase-src');
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(join(copy, 'bench/guard/isolate'), { recursive: true });
    for (const f of ['edgejwt-min.ts', 'issuers.ts']) copyFileSync(join(here, f), join(copy, 'bench/guard/isolate', f));
    cpSync(baseline, join(copy, 'src'), { recursive: true });
    entry = join(copy, 'bench/guard/isolate/edgejwt-min.ts');
    srcForAliases = join(copy, 'src');
  }
  const { code, wasmImport } = await bundleWorker(
    entry,
    file,
    { minify: true },
    srcForAliases,
    baseline === undefined ? undefined : baselineCore(baseline),
  );
  return { dir, file, code, wasmImport };
}

/**
 * createGuard(config) as a Worker (bench/lib/config-guard-entry.ts), beside the other bundles (same depth, same .wasm
 * path).
 */
export async function configGuard(
  name: string,
  config: unknown,
  src?: string,
  stages?: readonly string[],
): Promise<Bundle> {
  const dir = join(root, 'build/bench-isolate', name);
  const b = await configGuardBundle(dir, config, src, undefined, stages);
  return { dir, file: join(dir, 'worker.js'), code: b.code, wasmImport: b.wasmImport };
}
