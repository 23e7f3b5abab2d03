// The children of the nothing-injected runners (run.mjs, mcp.ts): each started in its own
// process group with the env Wrangler needs, stopped whole (wrangler's workerd too), and
// `wrangler dev` on a loopback port, ready once it answers.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/lib/free-port.mjs';

export { freePort };

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const windows = process.platform === 'win32';
export const bin = (name) => join(root, 'node_modules/.bin', windows ? `${name}.cmd` : name);
const START_TIMEOUT_MS = 60_000;

export const env = {
  ...process.env,
  // Wrangler needs the Node 22 of the `node` devDependency.
  PATH: `${join(root, 'node_modules/.bin')}${windows ? ';' : ':'}${process.env.PATH}`,
  NO_COLOR: '1',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};
/** Every child started here and not yet known to have ended. */
export const children = new Set();

/**
 * Starts a command in its own process group; `child.done` resolves to { code, output } when it ends or is stopped.
 *
 * @example
 * const { code, output } = await start('npm', ['pack']).done;
 */
export function start(cmd, args, opts = {}) {
  const stdio = ['ignore', 'pipe', 'pipe'];
  const child = spawn(cmd, args, { cwd: root, env, shell: windows, stdio, detached: !windows, ...opts });
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  child.done = new Promise((ok) => {
    child.on('error', (e) => ok({ code: 1, output: `${output}${cmd}: ${e.message}\n` }));
    child.on('close', (code) => ok({ code: code ?? 1, output }));
  });
  child.output = () => output;
  return child;
}

/**
 * Stops `child` and everything it started.
 *
 * @example
 * stop(child);
 */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (windows) child.kill();
    else process.kill(-child.pid, 'SIGTERM'); // the whole tree: wrangler's workerd too
  } catch {}
}

/**
 * `wrangler dev` in `cwd` on `port` (a free loopback one by default), with `vars`; resolves when it answers.
 *
 * @example
 * const { child, url } = await wranglerDev(join(here, 'worker'), { ISSUER: base });
 */
export async function wranglerDev(cwd, vars, port) {
  port ??= await freePort();
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', '0', '--log-level', 'warn'];
  args.push(...varArgs);
  const child = start(bin('wrangler'), args, { cwd });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until && child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) });
      return { child, url };
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  stop(child);
  throw new Error(`wrangler dev did not answer:\n${child.output().slice(-2000)}`);
}
