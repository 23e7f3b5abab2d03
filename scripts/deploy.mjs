// `npm run deploy`: builds the Wasm core, checks the GUARD_CONFIG in wrangler.toml's
// top-level vars (`edgejwt check-config`) and runs `wrangler deploy` for the top-level
// (production) environment with the default entry (src/worker/index.ts), with wrangler's
// metrics and banner off. With GUARD_CONFIG kept as a secret instead, set
// EDGEJWT_GUARD_CONFIG=<file.json> to check that file, or leave it unchecked here (the
// guard checks it at run time). Extra arguments go to wrangler: `npm run deploy -- --dry-run`.
// A node script rather than `VAR=value wrangler ...` so it runs on Windows too.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};
const run = (args, opts = { stdio: 'inherit' }) => spawnSync(process.execPath, args, { cwd: root, env, ...opts });

const built = run([join(root, 'scripts/build-wasm.mjs')]).status ?? 1;
if (built !== 0) process.exit(built);

// The CLI from src/ (no prior `npm run build`), as Node runs it.
const cli = join(root, 'build/cli/edgejwt.mjs');
await build({
  entryPoints: [join(root, 'src/cli/edgejwt.ts')],
  outfile: cli,
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  logLevel: 'warning',
  alias: {
    '#core-loader': join(root, 'src/wasm/load-bytes.ts'),
    '#crypto-backend': join(root, 'src/backend/node.ts'),
    '#platform': join(root, 'src/platform/node.ts'),
  },
});
const configFile = process.env.EDGEJWT_GUARD_CONFIG;
const checked = run(
  [cli, 'check-config', join(root, 'wrangler.toml'), ...(configFile ? ['--config', configFile] : [])],
  { encoding: 'utf8' },
);
process.stdout.write(checked.stdout ?? '');
if (checked.status !== 0) {
  if (!configFile && /GUARD_CONFIG: not set/.test(checked.stderr ?? ''))
    console.log('note: GUARD_CONFIG is not in the vars (a secret?): the guard checks it at run time');
  else {
    process.stderr.write(checked.stderr ?? '');
    process.exit(checked.status ?? 1);
  }
}
// `--env=` selects the top-level environment (wrangler.toml also defines [env.dev]).
process.exit(
  run([join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--env=', ...process.argv.slice(2)]).status ?? 1,
);
