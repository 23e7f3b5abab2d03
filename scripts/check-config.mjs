// `npm run check-config -- [FILE] [--env NAME] [--config FILE.json]`: the command users
// run as `npx edgejwt check-config`, for this repository (where the bin is not linked),
// from the sources: src/cli/edgejwt.ts bundled by esbuild into build/cli/ (a fraction of
// a second, no `npm run build` needed) and run with the given arguments.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build/cli/edgejwt.mjs');
// A fresh clone has no Wasm core yet (src/wasm/generated/ is built, not committed): build it, as `npm run dev` does.
if (!existsSync(join(root, 'src/wasm/generated/core-bytes.ts'))) {
  console.log('Building the Wasm core (first run)...');
  const built = spawnSync(process.execPath, [join(root, 'scripts/build-wasm.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 2);
}
await build({
  entryPoints: [join(root, 'src/cli/edgejwt.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // package.json "imports" lead to src/ under this condition, as for tsc.
  conditions: ['edgejwt-source'],
  // Wrangler is read from node_modules at run time, as the published bin does.
  external: ['wrangler'],
  logLevel: 'error',
});
const r = spawnSync(process.execPath, [out, 'check-config', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exitCode = r.status ?? 2;
