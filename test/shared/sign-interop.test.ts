// Signing interop with jose, both directions, in every runtime of the corpus:
// jose verifies every token edgejwt signs, and edgejwt verifies jose's.
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import {
  SUPPORTED_ALGORITHMS,
  createSigner,
  type Algorithm,
  createVerifier,
  type JWK,
  type PrivateJWK,
} from '../../src/index.js';
import { generate } from './jwt-mint.js';

async function privateJwk(pair: Awaited<ReturnType<typeof generate>>): Promise<PrivateJWK> {
  if (pair.secret !== undefined) return { kty: 'oct', k: pair.publicJwk.k! };
  const {
    key_ops: _o,
    ext: _e,
    alg: _a,
    ...jwk
  } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as PrivateJWK & { ext?: boolean };
  return jwk;
}

describe('signing interop with jose', () => {
  for (const alg of SUPPORTED_ALGORITHMS as readonly Algorithm[]) {
    it(`${alg}: jose verifies edgejwt's token, and edgejwt verifies jose's`, async () => {
      const pair = await generate(alg);
      const verifyKey = pair.secret ?? pair.publicKey;
      const ours = createSigner({ alg, key: pair.secret ?? (await privateJwk(pair)), header: { kid: 'k1' } });
      const token = await ours.sign(
        { sub: 'user-1', roles: ['a', 'b'], ü: 'ß' },
        { expiresIn: 120, issuer: 'https://i.example', audience: 'api', jwtId: 'j1' },
      );
      const checked = await jose.jwtVerify(token, verifyKey, {
        algorithms: [alg],
        issuer: 'https://i.example',
        audience: 'api',
      });
      expect(checked.payload).toMatchObject({ sub: 'user-1', roles: ['a', 'b'], ü: 'ß', jti: 'j1' });
      expect(checked.protectedHeader).toEqual({ alg, typ: 'JWT', kid: 'k1' });

      const theirs = await new jose.SignJWT({ sub: 'user-2' })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime('2m')
        .setIssuer('https://i.example')
        .sign(pair.secret ?? pair.privateKey);
      const v = createVerifier({
        algorithms: [alg],
        key: pair.secret ?? (pair.publicJwk as JWK),
        issuer: 'https://i.example',
      });
      expect((await v.verify(theirs)).payload.sub).toBe('user-2');
    });
  }
});
