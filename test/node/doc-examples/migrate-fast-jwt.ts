import { createSigner, createVerifier, isJwtError } from 'edgejwt';

const secret = new TextEncoder().encode('a shared secret of at least 32 bytes');

// fast-jwt: createSigner({ key, algorithm: 'HS256', expiresIn: 300_000, iss, aud })
const signer = createSigner({ alg: 'HS256', key: secret });
const token = signer.signSync({ sub: 'alice' }, { expiresIn: 300, issuer: 'https://auth.example', audience: 'api' });

// fast-jwt: createVerifier({ key, allowedIss, allowedAud, clockTolerance: 30_000, cache: true })
const verifier = createVerifier({
  algorithms: ['HS256'],           // required: never derived from the key
  key: secret,
  issuer: 'https://auth.example',
  audience: 'api',                 // a token without `aud` fails
  clockTolerance: 30,              // seconds, not milliseconds
  cache: { max: 1000, ttl: 600 },  // on by default; ttl in seconds
});
console.log(verifier.verifySync(token).payload.sub); // → alice

// fast-jwt: TokenError with code FAST_JWT_EXPIRED
const old = signer.signSync(
  { sub: 'alice' },
  { iat: 1_700_000_000, expiresIn: 60, issuer: 'https://auth.example', audience: 'api' },
);
try {
  verifier.verifySync(old);
} catch (err) {
  if (isJwtError(err, 'ERR_JWT_EXPIRED')) console.log(err.code); // → ERR_JWT_EXPIRED
}
