// Bundles the isolate bench's Workers with esbuild, as wrangler would: the guard
// from src/worker/ with the package's workerd aliases and its Wasm core as a
// compiled module beside the bundle (the library-only Worker likewise); the
// no-op and the jose guard as they are.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { CORE_WASM, bundleWorker } from '../../lib/workerd-bundle.ts';
import { compiledBundle } from '../../lib/compiled-entry.ts';

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

const ENTRIES = { guard: join(root, 'src/worker/index.ts'), lib: join(here, 'edgejwt-min.ts'), jose: join(here, 'jose-guard.ts'), noop: join(here, 'noop.ts'), base: '' };

/** `base`: the guard from another checkout's src/ (`src`), for a before/after in one run. */
export async function bundle(name: keyof typeof ENTRIES, src?: string): Promise<Bundle> {
  const dir = join(root, 'build/bench-isolate', name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'worker.js');
  const entry = name === 'base' ? join(src ?? join(root, 'src'), 'worker/index.ts') : ENTRIES[name];
  const { code, wasmImport } = await bundleWorker(entry, file, { minify: true }, name === 'base' && src !== undefined ? src : undefined);
  return { dir, file, code, wasmImport };
}

/** The guard's compiled entry (`edgejwt build-guard`) for `config`, beside the other bundles (same depth, same .wasm path). */
export async function compiledGuard(name: string, config: unknown, src?: string): Promise<Bundle> {
  const dir = join(root, 'build/bench-isolate', name);
  const b = await compiledBundle(dir, config, src);
  return { dir, file: join(dir, 'worker.js'), code: b.code, wasmImport: b.wasmImport };
}
