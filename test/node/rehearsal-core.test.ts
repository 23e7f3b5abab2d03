// A guard whose issuers allow no HS* or EdDSA never starts the Wasm core, and the
// rehearsal at startup (src/worker/rehearsal.ts) must not start it either: its token is the
// self-test's HS256 one. Node only: the core is one per process, and Vitest gives each
// file its own, so `coreStarted()` is false until this file starts it.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JWK } from '../../src/index.js';
import { coreStarted } from '../../src/wasm/instance.js';
import { rehearse } from '../../src/worker/rehearsal.js';
import { startGuard } from '../../src/worker/start.js';

const rsJwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }) as JWK;
const config = (algorithms: string[]) => ({
  issuers: [{ issuer: 'https://id.example', audience: 'api', algorithms, jwks: { keys: [{ ...rsJwk, kid: 'r1' }] } }],
  origin: 'builtin:echo',
});

describe('the rehearsal and the Wasm core', () => {
  it('rehearsal_never_starts_core_for_webcrypto_config', async () => {
    const guard = await startGuard({ GUARD_CONFIG: JSON.stringify(config(['RS256', 'PS256'])) }, { log: () => undefined });
    await rehearse(guard);
    expect(coreStarted()).toBe(false);
  });

  it('a config with an HS* issuer is rehearsed (the hook can see the core start)', async () => {
    const hs = { issuer: 'https://hs.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS' };
    const raw = { ...config(['RS256']), issuers: [...config(['RS256']).issuers, hs] };
    const guard = await startGuard({ GUARD_CONFIG: JSON.stringify(raw), HS: Buffer.alloc(32, 7).toString('base64url') }, { log: () => undefined });
    await rehearse(guard);
    expect(coreStarted()).toBe(true);
  });
});
