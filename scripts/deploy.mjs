// `npm run deploy`: builds the Wasm core, compiles the guard's entry for the GUARD_CONFIG
// in wrangler.toml's top-level vars (`edgejwt build-guard`: the config checked once here,
// only the features it uses in the bundle) and runs `wrangler deploy` for the top-level
// (production) environment with that entry, with wrangler's metrics and banner off.
// With GUARD_CONFIG kept as a secret instead, set EDGEJWT_GUARD_CONFIG=<file.json> to
// compile from that file, or leave it and the default entry (src/worker/index.ts)
// reads GUARD_CONFIG at run time. Extra arguments go to wrangler: `npm run deploy -- --dry-run`.
// A node script rather than `VAR=value wrangler ...` so it runs on Windows too.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_HIDE_BANNER: 'true' };
const run = (args, opts = { stdio: 'inherit' }) => spawnSync(process.execPath, args, { cwd: root, env, ...opts });

const built = run([join(root, 'scripts/build-wasm.mjs')]).status ?? 1;
if (built !== 0) process.exit(built);

// The CLI from src/ (no prior `npm run build`), as Node runs it.
const cli = join(root, 'build/cli/edgejwt.mjs');
await build({
  entryPoints: [join(root, 'src/cli/edgejwt.ts')], outfile: cli, bundle: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'warning',
  alias: { '#core-loader': join(root, 'src/wasm/load-bytes.ts'), '#crypto-backend': join(root, 'src/backend/node.ts'), '#platform': join(root, 'src/platform/node.ts') },
});
const entry = join(root, 'build/guard/entry.js');
const configFile = process.env.EDGEJWT_GUARD_CONFIG;
const compiled = run([cli, 'build-guard', join(root, 'wrangler.toml'), '--out', entry, '--import', '../../src/worker/compiled.ts', ...(configFile ? ['--config', configFile] : [])], { encoding: 'utf8' });
process.stdout.write(compiled.stdout ?? '');
let main = [];
if (compiled.status === 0) main = [entry];
else if (!configFile && /GUARD_CONFIG: not set/.test(compiled.stderr ?? '')) console.log('note: GUARD_CONFIG is not in the vars (a secret?): deploying the default entry, which reads it at run time');
else {
  process.stderr.write(compiled.stderr ?? '');
  process.exit(compiled.status ?? 1);
}
// `--env=` selects the top-level environment (wrangler.toml also defines [env.dev]).
process.exit(run([join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', ...main, '--env=', ...process.argv.slice(2)]).status ?? 1);
