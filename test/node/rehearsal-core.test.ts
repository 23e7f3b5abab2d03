// A guard whose issuers allow no HS* or EdDSA never starts the Wasm core, and the
// rehearsal at startup (src/worker/rehearsal.ts) must not start it either: its token is the
// self-test's HS256 one. Node only: the core is one per process, and Vitest gives each
// file its own, so `coreStarted()` is false until this file starts it.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JWK } from '../../src/index.js';
import { Core } from '../../src/wasm/core.js';
import { coreStarted } from '../../src/wasm/instance.js';
import { rehearse } from '../../src/worker/rehearsal.js';
import { startGuard } from '../../src/worker/start.js';

const rsJwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }) as JWK;
const config = (algorithms: string[]) => ({
  issuers: [{ issuer: 'https://id.example', audience: 'api', algorithms, jwks: { keys: [{ ...rsJwk, kid: 'r1' }] } }],
  origin: 'builtin:echo',
});

afterEach(() => vi.restoreAllMocks());

/** Every answer of the core's Ed25519 verify while `run` runs. */
async function ed25519Answers(run: () => Promise<void>): Promise<boolean[]> {
  const answers: boolean[] = [];
  const verify = Core.prototype.verify;
  const spy = vi.spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, scheme, slot, signed) {
    const answer = verify.call(this, scheme, slot, signed);
    if (scheme === 'ed25519') answers.push(answer);
    return answer;
  });
  // Restored at once: a second spy would wrap this one and call itself.
  await run().finally(() => spy.mockRestore());
  return answers;
}

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

  it('rehearsal_warms_eddsa_only_when_configured', async () => {
    const hsOnly = { issuers: [{ issuer: 'https://hs.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS' }], origin: 'builtin:echo' };
    const hsGuard = await startGuard({ GUARD_CONFIG: JSON.stringify(hsOnly), HS: Buffer.alloc(32, 7).toString('base64url') }, { log: () => undefined });
    // An HS-only config never reaches the core's Ed25519 code (the core itself does start).
    expect(await ed25519Answers(() => rehearse(hsGuard))).toEqual([]);
    const edJwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as JWK;
    const edOnly = { issuers: [{ issuer: 'https://id.example', audience: 'api', algorithms: ['EdDSA'], jwks: { keys: [{ ...edJwk, kid: 'e1' }] } }], origin: 'builtin:echo' };
    const edGuard = await startGuard({ GUARD_CONFIG: JSON.stringify(edOnly) }, { log: () => undefined });
    // The known answer (accept, refuse on another message, refuse a flipped bit), then the rehearsal's token accepted.
    expect(await ed25519Answers(() => rehearse(edGuard))).toEqual([true, false, false, true]);
  });
  it('rehearsal_each_family_survives_a_refused_response', async () => {
    // At module scope workerd refuses to build a Response with a body ("Disallowed operation called
    // within global scope"): the echo origin's answer and a 500's both throw there. Simulated here: the
    // HS256 rehearsal then ends in a throw after its verify, and the EdDSA one must still run.
    const edJwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as JWK;
    const both = {
      issuers: [
        { issuer: 'https://hs.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS' },
        { issuer: 'https://id.example', audience: 'api', algorithms: ['EdDSA'], jwks: { keys: [{ ...edJwk, kid: 'e1' }] } },
      ],
      origin: 'builtin:echo',
    };
    const guard = await startGuard({ GUARD_CONFIG: JSON.stringify(both), HS: Buffer.alloc(32, 7).toString('base64url') }, { log: () => undefined });
    const Real = globalThis.Response;
    let refused = 0;
    class GlobalScopeResponse extends Real {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        if (body !== null && body !== undefined) {
          refused++;
          throw new Error('Disallowed operation called within global scope');
        }
        super(body, init);
      }
    }
    globalThis.Response = GlobalScopeResponse as typeof Response;
    let answers: boolean[];
    try {
      answers = await ed25519Answers(() => rehearse(guard));
    } finally {
      globalThis.Response = Real;
    }
    expect(refused).toBeGreaterThan(0);
    // The EdDSA rehearsal's token accepted after the HS256 rehearsal threw (the known answer may have run already).
    expect(answers.at(-1)).toBe(true);
  });
});
