// Bundles the isolate bench's Workers with esbuild, as wrangler would: the guard
// from src/worker/ with the package's workerd aliases and its Wasm core as a
// compiled module beside the bundle (the library-only Worker likewise); the
// no-op and the jose guard as they are.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));

export interface Bundle {
  dir: string;
  file: string;
  code: string;
  /** The guard's import specifier of its .wasm (relative to the bundle), if any. */
  wasmImport?: string;
}

export const CORE_WASM = join(root, 'src/wasm/generated/core.wasm');

const ENTRIES = { guard: join(root, 'src/worker/index.ts'), lib: join(here, 'edgejwt-min.ts'), jose: join(here, 'jose-guard.ts'), noop: join(here, 'noop.ts') };

export async function bundle(name: keyof typeof ENTRIES): Promise<Bundle> {
  const entry = ENTRIES[name];
  const dir = join(root, 'build/bench-isolate', name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'worker.js');
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    minify: true,
    conditions: ['workerd', 'worker', 'browser'],
    alias: {
      '#core-loader': join(root, 'src/wasm/load-workerd.ts'),
      '#crypto-backend': join(root, 'src/backend/webcrypto.ts'),
      '#platform': join(root, 'src/platform/web.ts'),
    },
    external: ['*.wasm'],
    logLevel: 'warning',
  });
  const code = readFileSync(file, 'utf8');
  const wasmImport = /from\s*"([^"]*core\.wasm)"/.exec(code)?.[1];
  if (wasmImport !== undefined) {
    const target = join(dir, wasmImport);
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(CORE_WASM, target);
  }
  return { dir, file, code, wasmImport };
}
