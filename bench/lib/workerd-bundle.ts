// One esbuild step for every Worker the benches start: the package's `workerd`
// resolution (as Wrangler bundles it) with the Wasm core imported as a compiled
// module, copied to where the bundle looks for it.
import { build, type BuildOptions } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, resolve } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const CORE_WASM = join(root, 'src/wasm/generated/core.wasm');

export interface WorkerBundle {
  code: string;
  /** The bundle's import specifier of the core's .wasm (relative to it), if it imports one. */
  wasmImport?: string;
  /** Bytes each source file left in the bundle (paths relative to the repository). */
  inputs: Record<string, number>;
}

/** esbuild's options for a Worker as Wrangler bundles it (no entry or output). */
export function workerBuildOptions(src = join(root, 'src')): BuildOptions {
  return {
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    alias: {
      '#core-loader': join(src, 'wasm/load-workerd.ts'),
      '#crypto-backend': join(src, 'backend/webcrypto.ts'),
      '#platform': join(src, 'platform/web.ts'),
    },
    external: ['*.wasm', 'cloudflare:*'],
    logLevel: 'warning',
  };
}

/** `src`: the src/ whose `#…` imports resolve (another checkout's for a before/after; default this one's). */
/**
 * `core`: the .wasm to copy beside the bundle (default this checkout's; a baseline brings its own, whose exports may
 * differ).
 */
/** `extra.alias` adds to the `#…` aliases. */
export async function bundleWorker(
  entry: string,
  outfile: string,
  extra: {
    minify?: boolean;
    keepNames?: boolean;
    define?: Record<string, string>;
    alias?: Record<string, string>;
  } = {},
  src = join(root, 'src'),
  core = CORE_WASM,
): Promise<WorkerBundle> {
  const base = workerBuildOptions(src);
  const r = await build({
    ...base,
    entryPoints: [entry],
    metafile: true,
    outfile,
    ...extra,
    alias: { ...base.alias, ...extra.alias },
  });
  const code = readFileSync(outfile, 'utf8');
  const wasmImport = /from\s*"([^"]*core\.wasm)"/.exec(code)?.[1];
  if (wasmImport !== undefined) {
    const target = join(outfile, '..', wasmImport);
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(core, target);
  }
  const inputs: Record<string, number> = {};
  for (const [file, { bytesInOutput }] of Object.entries(
    Object.values(r.metafile.outputs).find((o) => o.entryPoint !== undefined)?.inputs ?? {},
  )) {
    if (bytesInOutput > 0) inputs[relative(root, resolve(file))] = bytesInOutput;
  }
  return { code, wasmImport, inputs };
}
