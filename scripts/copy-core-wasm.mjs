// Part of `npm run build:ts`: tsc emits dist/ from src/ but copies no .wasm, so
// the core the `workerd` condition imports is copied beside its loader here (a
// node script rather than `cp`, so the build runs in cmd.exe and PowerShell too).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const to = join(root, 'dist/wasm/generated/core.wasm');
mkdirSync(dirname(to), { recursive: true });
copyFileSync(join(root, 'src/wasm/generated/core.wasm'), to);
