// `npm run token` (dev/token.mjs): its flags, run as a user would.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeUnverified } from '../../src/decode.js';
import { checkDpopBinding, jwkThumbprint, verifyDpopProof } from '../../src/index.js';
import { createGuard, defaultStages } from '../../src/worker/api.js';
// @ts-expect-error: dev/ is plain JavaScript without types
import { devGuardConfig } from '../../dev/demo-issuer.mjs';

const script = fileURLToPath(new URL('../../dev/token.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

describe('npm run token', () => {
  const EVERY_FLAG = ['--sub', '--scope', '--aud', '--iss', '--exp', '--ttl', '--port'];
  EVERY_FLAG.push('--dpop', '--method', '--url', '--mcp', '--help');

  it('--help prints every option and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const f of EVERY_FLAG) expect(r.stdout).toMatch(new RegExp(`^ {2}${f} `, 'm'));
  });

  it('token_unknown_flag_lists_every_flag: its first line names every option, switches included', () => {
    const r = run('--bogus');
    expect(r.status).toBe(2);
    const first = r.stderr.split('\n')[0]!;
    expect(first).toMatch(/^unknown or incomplete option --bogus; expected /);
    for (const f of EVERY_FLAG) expect(first.split(' ')).toContain(f);
  });

  it('--aud, --iss, --sub, --scope land in the token', () => {
    const t = execFileSync(
      process.execPath,
      [script, '--aud', 'other', '--iss', 'https://x.example.com', '--sub', 'bob', '--scope', 'read admin'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    ).trim();
    const { payload, header } = decodeUnverified(t);
    expect(payload).toMatchObject({ aud: 'other', iss: 'https://x.example.com', sub: 'bob', scope: 'read admin' });
    expect(header.alg).toBe('EdDSA');
  });

  it('--exp -60 mints a token that expired a minute ago (iat before exp)', () => {
    const t = run('--exp', '-60').stdout.trim();
    const { payload } = decodeUnverified(t);
    const now = Math.floor(Date.now() / 1000);
    expect(payload.exp).toBeLessThan(now);
    expect(payload.exp).toBeGreaterThan(now - 120);
    expect(payload.iat).toBeLessThan(payload.exp as number);
  });

  it('unknown flags and bad numbers exit 2', () => {
    expect(run('--bogus', '1').status).toBe(2);
    expect(run('--exp', 'soon').status).toBe(2);
    expect(run('--exp', '0').status).toBe(2);
    expect(run('--url', 'http://127.0.0.1/x').status).toBe(2);
    expect(run('--dpop', '--url', '/dpop/x').status).toBe(2);
    expect(run('--dpop', '--method', 'get').status).toBe(2);
    expect(run('--dpop', '--mcp').status).toBe(2);
  });
});

/** The curl line `npm run token -- --dpop` prints: method, URL and headers. */
function parseCurl(stderr: string): { method: string; url: string; headers: Record<string, string> } {
  const line = stderr.split('\n').find((l) => l.startsWith('curl '))!;
  const method = / -X ([A-Z]+) /.exec(line)?.[1] ?? 'GET';
  const url = / (https?:\/\/\S+) /.exec(line)![1]!;
  const headers: Record<string, string> = {};
  for (const [, name, value] of line.matchAll(/-H "([^:]+): ([^"]+)"/g)) headers[name!.toLowerCase()] = value!;
  return { method, url, headers };
}

/** `npm run dev`'s GUARD_CONFIG (wrangler.toml [env.dev]), its DPoP replay store swapped for this process's memory. */
function devConfig(): Record<string, unknown> {
  const toml = readFileSync(fileURLToPath(new URL('../../wrangler.toml', import.meta.url)), 'utf8');
  const text = /\[env\.dev\.vars\][\s\S]*?GUARD_CONFIG = '''([\s\S]*?)'''/.exec(toml)![1]!;
  const config = JSON.parse(text) as Record<string, unknown> & { dpop: Record<string, unknown> };
  return { ...config, dpop: { ...config.dpop, replay: 'isolate' }, cache: undefined, admin: undefined };
}

describe('npm run token -- --dpop', () => {
  it(
    'dev_token_dpop_bound: the token is RFC 9068-shaped and bound (cnf.jkt) to the key of the proof printed ' +
      'beside it',
    async () => {
      const r = run('--dpop', '--method', 'POST', '--url', 'http://127.0.0.1:9999/dpop/orders', '--sub', 'bob');
      expect(r.status).toBe(0);
      const token = r.stdout.trim();
      const curl = parseCurl(r.stderr);
      expect(curl).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9999/dpop/orders' });
      expect(curl.headers.authorization).toBe(`DPoP ${token}`);
      const { header, payload } = decodeUnverified(token);
      expect(header.typ).toBe('at+jwt');
      expect(payload).toMatchObject({
        iss: 'https://demo-issuer.edgejwt.invalid/dpop',
        sub: 'bob',
        client_id: 'demo-client',
      });
      expect(typeof payload.jti).toBe('string');
      const proof = await verifyDpopProof(curl.headers.dpop!, {
        method: 'POST',
        url: curl.url,
        algorithms: ['ES256'],
        accessToken: token,
      });
      expect((payload.cnf as { jkt: string }).jkt).toBe(jwkThumbprint(proof.jwk));
      checkDpopBinding(payload, proof);
    },
  );

  it(
    "dev_token_dpop_curl_against_dev_config: the printed curl passes npm run dev's config once, then is a " +
      'replay (401); the default URL is /dpop/hello',
    async () => {
      const r = run('--dpop', '--port', '8787');
      const { method, url, headers } = parseCurl(r.stderr);
      expect(url).toBe('http://127.0.0.1:8787/dpop/hello');
      const guard = createGuard(devConfig() as never, { stages: defaultStages, log: () => undefined });
      const env = {};
      const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };
      const send = () => guard.fetch(new Request(url, { method, headers }), env as never, ctx);
      const first = await send();
      expect(first.status).toBe(200);
      expect(((await first.json()) as { path: string }).path).toBe('/dpop/hello');
      expect((await send()).status).toBe(401);
      // /dpop/ takes only the DPoP issuer: the plain demo token is refused there, and the bound token as Bearer too.
      const plain = run().stdout.trim();
      expect(
        (await guard.fetch(new Request(url, { headers: { authorization: `Bearer ${plain}` } }), env as never, ctx))
          .status,
      ).toBe(401);
      expect(
        (
          await guard.fetch(
            new Request('http://127.0.0.1:8787/hello', { headers: { authorization: `Bearer ${plain}` } }),
            env as never,
            ctx,
          )
        ).status,
      ).toBe(200);
      const bound = run('--dpop').stdout.trim();
      expect(
        (
          await guard.fetch(
            new Request('http://127.0.0.1:8787/hello', { headers: { authorization: `Bearer ${bound}` } }),
            env as never,
            ctx,
          )
        ).status,
      ).toBe(401);
    },
  );
});

describe('npm run token -- --mcp', () => {
  it(
    "dev_token_mcp_curl_against_dev_config: the printed JSON-RPC curl passes npm run dev's config on that port; " +
      'the metadata names the resource there',
    async () => {
      const r = run('--mcp', '--port', '9999');
      expect(r.status).toBe(0);
      const token = r.stdout.trim();
      const { method, url, headers } = parseCurl(r.stderr);
      expect({ method, url }).toEqual({ method: 'POST', url: 'http://127.0.0.1:9999/mcp' });
      expect(decodeUnverified(token).payload).toMatchObject({ aud: 'http://127.0.0.1:9999/mcp', scope: 'mcp:tools' });
      const body = /-d '([^']+)'/.exec(r.stderr)![1]!;
      // start.mjs hands wrangler this config: wrangler.toml's, the resource id on the port in use.
      const config: Record<string, unknown> = {
        ...JSON.parse(devGuardConfig(9999)),
        cache: undefined,
        admin: undefined,
      };
      const dpop = { ...(config.dpop as Record<string, unknown>), replay: 'isolate' };
      const guard = createGuard({ ...config, dpop } as never, { stages: defaultStages, log: () => undefined });
      const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };
      const send = (h: Record<string, string>) =>
        guard.fetch(new Request(url, { method, headers: h, body }), {} as never, ctx);
      const passed = await send(headers);
      expect(passed.status).toBe(200);
      expect(await passed.json()).toMatchObject({
        method: 'POST',
        path: '/mcp',
        headers: { 'x-auth-scope': 'mcp:tools' },
      });
      const metadataUrl = 'http://127.0.0.1:9999/.well-known/oauth-protected-resource/mcp';
      const doc = await (await guard.fetch(new Request(metadataUrl), {} as never, ctx)).json();
      expect(doc).toMatchObject({ resource: 'http://127.0.0.1:9999/mcp', scopes_supported: ['mcp:tools'] });
      // No token: 401 pointing to the metadata; the plain demo token and one for port 8787 are not for this resource.
      const none = await send({ 'content-type': 'application/json' });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`);
      expect((await send({ authorization: `Bearer ${run().stdout.trim()}` })).status).toBe(401);
      expect((await send({ authorization: `Bearer ${run('--mcp').stdout.trim()}` })).status).toBe(401);
    },
  );
});
