// The Wasm core's size as every doc gives it, from the core built from assembly/
// (src/wasm/generated/core.wasm; the build is deterministic, scripts/pack-check.mjs
// checks that): one figure, one unit, so the docs never disagree. The gzip figure is
// rounded to whole KB: zlib builds may differ by a few bytes. Builds the core first
// when it is missing (a fresh clone).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * `44.7 KB (44,743 bytes; 16 KB gzip)` for the core of the checkout at `root`.
 * @example coreSizeFigure('/work/edgejwt') // '44.7 KB (44,743 bytes; 16 KB gzip)'
 */
export function coreSizeFigure(root) {
  const wasm = join(root, 'src/wasm/generated/core.wasm');
  if (!existsSync(wasm)) {
    const built = spawnSync(process.execPath, [join(root, 'scripts/build-wasm.mjs')], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the Wasm core did not build (scripts/build-wasm.mjs)');
  }
  const bytes = readFileSync(wasm);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const exact = bytes.length.toLocaleString('en-US');
  return `${(bytes.length / 1000).toFixed(1)} KB (${exact} bytes; ${(gzip / 1000).toFixed(0)} KB gzip)`;
}
