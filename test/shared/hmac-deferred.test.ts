// A verifier's HMAC key is checked when the verifier is made but imported into the
// core only at its first verify, so a multi-issuer verifier's first request for an
// EdDSA/RS/ES issuer does not pay for the HMAC issuer (issue 16, cold start); an
// asynchronous (WebCrypto) import of an RS/ES key likewise waits for its first verify.
import { describe, expect, it } from 'vitest';
import { indexOfBytes } from './bytes.js';
import { backend } from '#crypto-backend';
import { createVerifier, type JWK } from '../../src/index.js';
import { getCore } from '../../src/wasm/instance.js';
import { coreMemory } from '../../src/wasm/core.js';
import { isJwtError } from '../../src/errors.js';
import { claims, generate, mint, nowDate } from './jwt-mint.js';

/** Runs `body` while counting the core's HMAC imports. */
async function countImports(body: () => Promise<void> | void): Promise<number> {
  const core = getCore();
  const original = core.hmacImport;
  let count = 0;
  core.hmacImport = function (...args: Parameters<typeof original>) {
    count++;
    return original.apply(this, args);
  };
  try {
    await body();
  } finally {
    core.hmacImport = original;
  }
  return count;
}

function codeOfSync(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isJwtError(e) ? e.code : String(e);
  }
  return undefined;
}

describe('HMAC keys are imported at their first verify', () => {
  it('createVerifier does not import the secret; the first HS256 verify does, once', async () => {
    const pair = await generate('HS256');
    const token = await mint(pair, claims());
    let verifier: ReturnType<typeof createVerifier> | undefined;
    const atConstruction = await countImports(() => {
      verifier = createVerifier({
        algorithms: ['HS256'],
        key: pair.secret!,
        currentDate: nowDate,
        issuer: 'https://issuer.example',
        audience: 'api',
      });
    });
    expect(atConstruction).toBe(0);
    const atVerify = await countImports(async () => {
      expect((await verifier!.verify(token)).payload.sub).toBe('user-1');
      expect(verifier!.verifySync(token).payload.sub).toBe('user-1');
    });
    expect(atVerify).toBe(1);
  });

  it('a too-long secret still fails at createVerifier with ERR_KEY_INVALID, a short one with ERR_KEY_TOO_SHORT', () => {
    const make = (key: Uint8Array) => () =>
      createVerifier({ algorithms: ['HS256'], key, issuer: 'https://issuer.example', audience: 'api' });
    expect(codeOfSync(make(new Uint8Array(65537).fill(1)))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(make(new Uint8Array(31).fill(1)))).toBe('ERR_KEY_TOO_SHORT');
    expect(codeOfSync(make(new Uint8Array(65536).fill(1)))).toBeUndefined();
  });

  it('the secret is not left in core memory after the deferred import', async () => {
    const pair = await generate('HS256', { secretLength: 48 });
    const secret = pair.secret!;
    const token = await mint(pair, claims());
    const v = createVerifier({
      algorithms: ['HS256'],
      key: secret,
      currentDate: nowDate,
      issuer: 'https://issuer.example',
      audience: 'api',
    });
    expect((await v.verify(token)).payload.sub).toBe('user-1');
    expect(indexOfBytes(coreMemory(getCore()), secret)).toBe(-1);
  });
});

describe('WebCrypto key imports start at the first verify', () => {
  it(
    'createVerifier with RS256 and ES256 keys calls importKey only where a failure would throw there (node), ' +
      'else at the first verify',
    async () => {
      const rs = await generate('RS256');
      const es = await generate('ES256');
      const subtle = crypto.subtle as { importKey: SubtleCrypto['importKey'] };
      const original = subtle.importKey;
      let imports = 0;
      subtle.importKey = function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto['importKey']>) {
        imports++;
        return original.apply(this, args);
      } as SubtleCrypto['importKey'];
      try {
        const verifiers = [rs, es].map((pair) =>
          createVerifier({
            algorithms: [pair.alg as 'RS256' | 'ES256'],
            key: pair.publicJwk as JWK,
            currentDate: nowDate,
            issuer: 'https://issuer.example',
            audience: 'api',
          }),
        );
        // The node backend imports with node:crypto (sync, its errors thrown by createVerifier).
        expect(imports).toBe(0);
        for (const [i, pair] of [rs, es].entries()) {
          const token = await mint(pair, claims());
          expect((await verifiers[i]!.verify(token)).payload.sub).toBe('user-1');
          expect((await verifiers[i]!.verify(token)).payload.sub).toBe('user-1');
        }
        expect(imports).toBe(backend.name === 'webcrypto' ? 2 : 0);
      } finally {
        subtle.importKey = original;
      }
    },
  );

  it('a malformed RSA or EC key still fails at createVerifier', () => {
    const make = (alg: 'RS256' | 'ES256', key: JWK) => () =>
      createVerifier({ algorithms: [alg], key, issuer: 'https://issuer.example', audience: 'api' });
    expect(codeOfSync(make('RS256', { kty: 'RSA', n: 'AQAB', e: 'AQAB' }))).toBe('ERR_KEY_TOO_SHORT');
    expect(codeOfSync(make('ES256', { kty: 'EC', crv: 'P-256', x: 'AQAB', y: 'AQAB' }))).toBe('ERR_KEY_INVALID');
  });
});
