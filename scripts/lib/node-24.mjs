// Node 24 (the active LTS) for the suites that run in it: the newest 24.x the registry
// serves, from the `node` npm package (which ships the binary), kept in build/node-24.
// scripts/test-all.mjs and test/no-fakes/run.mjs may ask at once, from two processes:
// a lock file makes the second wait for the first one's install instead of racing it.
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const windows = process.platform === 'win32';
const LOCK_WAIT_MS = 120_000; // an install takes seconds
const INSTALL_ARGS = ['--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', 'node@24'];

/** The Node 24 binary's path under `root` (it may not be installed). */
export function node24Path(root) {
  return join(root, 'build', 'node-24', 'node_modules', '.bin', windows ? 'node.cmd' : 'node');
}

/** True while the process that wrote `lock` runs. */
function holderAlive(lock) {
  const pid = Number(readFileSync(lock, 'utf8'));
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Takes build/node-24.lock, waiting while a live process holds it; resolves to its release. */
async function lock(root) {
  const file = join(root, 'build', 'node-24.lock');
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let alive = true;
    try {
      alive = holderAlive(file);
    } catch {} // written a moment ago and still empty, or just released: look again
    if (!alive)
      rmSync(file, { force: true }); // its holder died mid-install
    else if (Date.now() > until) throw new Error(`${file} still held after ${LOCK_WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Installs node@24 into build/node-24 under `root` and resolves to its binary; with
 * `refresh: false`, a binary already there is used as it is. `run(cmd, args)` starts
 * npm the caller's way (its output, its deadline) and resolves to the exit code.
 * Throws when the install fails.
 *
 * @example
 * const node24 = await ensureNode24(root, { refresh: false, run: (cmd, args) => exitCodeOf(cmd, args) });
 */
export async function ensureNode24(root, { refresh, run }) {
  const binary = node24Path(root);
  mkdirSync(join(root, 'build', 'node-24'), { recursive: true });
  const release = await lock(root);
  try {
    if (!refresh && existsSync(binary)) return binary;
    const code = await run('npm', ['install', '--prefix', join(root, 'build', 'node-24'), ...INSTALL_ARGS]);
    if (code !== 0 || !existsSync(binary)) throw new Error(`npm install node@24 failed (exit code ${code})`);
    return binary;
  } finally {
    release();
  }
}
