// `npm run deploy`: builds the Wasm core and runs `wrangler deploy` for the
// top-level (production) environment of wrangler.toml, with wrangler's metrics
// and banner off. Extra arguments go to wrangler: `npm run deploy -- --dry-run`.
// A node script rather than `VAR=value wrangler ...` so it runs on Windows too.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_HIDE_BANNER: 'true' };
const run = (args) => spawnSync(process.execPath, args, { cwd: root, env, stdio: 'inherit' }).status ?? 1;

const built = run([join(root, 'scripts/build-wasm.mjs')]);
if (built !== 0) process.exit(built);
// `--env=` selects the top-level environment (wrangler.toml also defines [env.dev]).
process.exit(run([join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--env=', ...process.argv.slice(2)]));
