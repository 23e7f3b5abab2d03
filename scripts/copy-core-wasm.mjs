// Part of `npm run build:ts`: tsc emits dist/ from src/ but copies no .wasm or
// .json, so the core the `workerd` condition imports is copied beside its
// loader here, and the guard config JSON Schema beside the worker entry (the
// `./guard-config.schema.json` export). A node script rather than `cp`, so the
// build runs in cmd.exe and PowerShell too.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const [from, to] of [
  ['src/wasm/generated/core.wasm', 'dist/wasm/generated/core.wasm'],
  ['src/worker/guard-config.schema.json', 'dist/worker/guard-config.schema.json'],
]) {
  mkdirSync(dirname(join(root, to)), { recursive: true });
  copyFileSync(join(root, from), join(root, to));
}
