// `npm run dev`: the guard under `wrangler dev --env dev` (local, no account),
// with the demo issuer and the built-in echo origin. Builds the Wasm core if this
// is a fresh clone, mints a demo token, and prints ready-to-paste curl commands
// once the guard answers. The config is wrangler.toml's, its MCP resource id on the
// port in use (the metadata and every challenge name it). DEV ONLY.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { MCP_ISSUER, devGuardConfig, mcpResource, mintDemoToken, parseFlags } from './demo-issuer.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flags = parseFlags(process.argv.slice(2), ['port']);
const port = Number(flags.port ?? process.env.PORT ?? 8787);
const base = `http://127.0.0.1:${port}`;

if (!existsSync(join(root, 'src/wasm/generated/core.wasm'))) {
  console.log('Building the Wasm core (first run)...');
  execFileSync(process.execPath, [join(root, 'scripts/build-wasm.mjs')], { cwd: root, stdio: 'inherit' });
}

// A taken port must fail here, by name: wrangler would otherwise die after the
// readiness probe below had already reached whatever else answers on it.
const taken = await new Promise((resolve) => {
  const probe = createServer();
  probe.once('error', (e) => resolve(e.code === 'EADDRINUSE' || e.code === 'EACCES' ? e.code : undefined));
  probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(undefined)));
});
if (taken) {
  console.error(
    `Port ${port} on 127.0.0.1 is ${taken === 'EACCES' ? 'not allowed' : 'already in use'}: stop what listens ` +
      'there or pick another port with `npm run dev -- --port 8788`.',
  );
  process.exit(1);
}

// Set here rather than as `VAR=value` in package.json, so that it works in cmd.exe
// and PowerShell too; wrangler's own script is run by this Node for the same reason
// (node_modules/.bin/wrangler is a shell shim on Windows).
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};
const wrangler = spawn(
  process.execPath,
  [
    join(root, 'node_modules/wrangler/bin/wrangler.js'),
    ...['dev', '--env', 'dev', '--ip', '127.0.0.1', '--port', String(port)],
    ...['--var', `GUARD_CONFIG:${devGuardConfig(port)}`],
  ],
  { cwd: root, env, stdio: 'inherit' },
);
let exited = false;
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => wrangler.kill(sig));
wrangler.on('exit', (code, signal) => {
  exited = true;
  process.exit(code ?? (signal ? 1 : 0));
});

async function ready() {
  for (let i = 0; i < 240 && !exited; i++) {
    try {
      const res = await fetch(`${base}/health`);
      await res.arrayBuffer();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  return false;
}

const [token, admin, mcp] = await Promise.all([
  mintDemoToken({ sub: 'alice', scope: 'read' }),
  mintDemoToken({ sub: 'root', scope: 'read admin' }),
  mintDemoToken({ sub: 'agent', scope: 'mcp:tools', iss: MCP_ISSUER, aud: mcpResource(port) }),
]);
const rpc = `-H "Content-Type: application/json" -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`;
if (await ready()) {
  console.log(`
edgejwt guard (dev) on ${base}: demo issuer, echo origin. Try:

  # 200: the echo origin shows X-Auth-Sub / X-Auth-Scope set by the guard
  curl -i ${base}/hello -H "Authorization: Bearer ${token}"

  # 401: no token
  curl -i ${base}/hello

  # 403 with alice's token, 200 with an admin-scoped one
  curl -i ${base}/admin/panel -H "Authorization: Bearer ${token}"
  curl -i ${base}/admin/panel -H "Authorization: Bearer ${admin}"

  # MCP (a protected resource, RFC 9728): its metadata, no token needed
  curl -s ${base}/.well-known/oauth-protected-resource/mcp
  # 401 whose WWW-Authenticate points to it; then 200 with a token for this resource (the echo shows the POST)
  curl -i -X POST ${base}/mcp ${rpc}
  curl -i -X POST ${base}/mcp -H "Authorization: Bearer ${mcp}" ${rpc}

  # counters (dev admin secret from wrangler.toml [env.dev])
  curl -s ${base}/__guard/counters -H "X-Guard-Admin: dev-only-admin-secret"

More tokens: npm run token -- --sub bob --scope "read write"
DPoP: npm run token -- --dpop --port ${port}   (a one-use curl for /dpop/hello: 200, then 401 as a replay)
MCP: npm run token -- --mcp --port ${port}   (a token for the resource ${mcpResource(port)} and its curl)
`);
} else {
  console.error(`The guard did not answer on ${base}/health; see the wrangler output above.`);
}
