// `npm run token` (dev/token.mjs): its flags, run as a user would.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeUnverified } from '../../src/decode.js';

const script = fileURLToPath(new URL('../../dev/token.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

describe('npm run token', () => {
  it('--help prints the options and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const f of ['--sub', '--scope', '--aud', '--iss', '--exp']) expect(r.stdout).toContain(f);
  });

  it('--aud, --iss, --sub, --scope land in the token', () => {
    const t = execFileSync(process.execPath, [script, '--aud', 'other', '--iss', 'https://x.example.com', '--sub', 'bob', '--scope', 'read admin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
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
  });
});
