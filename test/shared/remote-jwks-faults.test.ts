// A remote key set against endpoints and stores that never answer (issue 22): every
// verify settles, the fetch under one deadline (body included), the store as a cache
// that is read under a deadline and written off the request's path.
import { describe, expect, it } from 'vitest';
import { createRemoteJWKSet, createVerifier, type JWK } from '../../src/index.js';
import { claims, codeOf, generate, mint, nowDate, type KeyPair } from './jwt-mint.js';

const URL_ = 'https://issuer.example/jwks';

async function keyWithKid(alg: string, kid: string): Promise<KeyPair & { jwk: JWK }> {
  const pair = await generate(alg);
  return { ...pair, jwk: { ...(pair.publicJwk as JWK), kid } };
}

/** A 200 whose body sends `head` and then never another byte, and ignores the fetch's abort signal. */
function stalledBody(head: string): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode(head)),
      pull: () => new Promise<void>(() => undefined),
    }),
    { headers: { 'content-type': 'application/json' } },
  );
}

describe('remote JWKS: a body that stalls', () => {
  it('jwks_body_ignoring_abort_times_out', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    let calls = 0;
    const fetchStalled = (async () => {
      calls++;
      return stalledBody('{"keys":[');
    }) as unknown as typeof fetch;
    const set = createRemoteJWKSet(URL_, { fetch: fetchStalled, timeoutDuration: 50 });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate, cache: false });
    const t = await mint(a, claims(), { kid: 'a' });
    // The first verify and those joined on its fetch all get the timeout.
    const codes = await Promise.all(Array.from({ length: 5 }, () => codeOf(() => v.verify(t))));
    expect(codes).toEqual(Array(5).fill('ERR_JWKS_TIMEOUT'));
    expect(calls).toBe(1);
  });
});
