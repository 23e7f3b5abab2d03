import { createVerifier, createRemoteJWKSet, isJwtError } from 'edgejwt';

const verifier = createVerifier({
  algorithms: ['EdDSA', 'RS256'],             // required allow-list; `none` never passes
  jwks: createRemoteJWKSet(new URL('https://id.example.com/.well-known/jwks.json')),
  issuer: 'https://id.example.com',
  audience: 'api',
  clockTolerance: 30,
});

/** The token's claims, or the code saying why it was refused. */
async function authenticate(token: string) {
  try {
    const { payload } = await verifier.verify(token);
    return { payload };
  } catch (err) {
    if (isJwtError(err)) return { refused: err.code }; // e.g. ERR_JWT_EXPIRED; never contains the token
    throw err; // not a verdict on the token (a bug, a fault): let it surface
  }
}

console.log((await authenticate('not-a-jwt')).refused); // → ERR_JWT_MALFORMED
