// Fakes for remote key-set tests: keys with a kid, and an issuer that serves one set after another.
import type { JWK } from '../../src/index.js';
import { generate, type KeyPair } from './jwt-mint.js';

export const URL_ = 'https://issuer.example/jwks';

/** A fresh key pair whose public JWK carries `kid`. */
export async function keyWithKid(alg: string, kid: string): Promise<KeyPair & { jwk: JWK }> {
  const pair = await generate(alg);
  return { ...pair, jwk: { ...(pair.publicJwk as JWK), kid } };
}

/**
 * A fetch that serves each set in turn (the last one for ever after), each with max-age=60; `calls` counts requests.
 */
export function sets(...bodies: JWK[][]): typeof fetch & { calls: number } {
  const f = (async () => {
    const body = bodies[Math.min(f.calls, bodies.length - 1)]!;
    f.calls++;
    return Response.json({ keys: body }, { headers: { 'cache-control': 'max-age=60' } });
  }) as unknown as typeof fetch & { calls: number };
  f.calls = 0;
  return f;
}
