// `npm run gen`: every generator of scripts/generated.mjs, then the Wasm core and
// the speccheck table built from it (docs/ed25519-speccheck.md).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { GENERATORS, generatorEnv, nodeFor } from './generated.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (...args) =>
  execFileSync(nodeFor(root, args[0]), args, { cwd: root, stdio: 'inherit', env: generatorEnv() });

for (const { script } of GENERATORS) run(script);
run('scripts/build-wasm.mjs');
run('scripts/speccheck-table.mjs', '--write');
