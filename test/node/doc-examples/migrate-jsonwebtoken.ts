import { createSigner, createVerifier, isJwtError } from 'edgejwt';

const secret = new TextEncoder().encode('a shared secret of at least 32 bytes');

// jsonwebtoken: jwt.sign(payload, secret, { algorithm: 'HS256', expiresIn: '5m', keyid: 'k1', issuer, audience })
const signer = createSigner({ alg: 'HS256', key: secret, header: { kid: 'k1' } });
const token = signer.signSync({ sub: 'alice' }, { expiresIn: 300, issuer: 'https://auth.example', audience: 'api' });

// jsonwebtoken: jwt.verify(token, secret,
//                 { algorithms: ['HS256'], issuer, audience, clockTolerance: 30, maxAge: '1h' })
const verifier = createVerifier({
  algorithms: ['HS256'],
  key: secret,
  issuer: 'https://auth.example',
  audience: 'api',
  clockTolerance: 30,  // seconds, as in jsonwebtoken
  maxTokenAge: 3600,   // seconds only: no '1h' strings
});
// jwt.verify is synchronous; so is verifySync (HS* and EdDSA everywhere, every algorithm in Node).
console.log(verifier.verifySync(token).payload.sub); // → alice

// jsonwebtoken: err.name === 'TokenExpiredError'
const old = signer.signSync(
  { sub: 'alice' },
  { iat: 1_700_000_000, expiresIn: 60, issuer: 'https://auth.example', audience: 'api' },
);
try {
  verifier.verifySync(old);
} catch (err) {
  if (isJwtError(err, 'ERR_JWT_EXPIRED')) console.log(err.code); // → ERR_JWT_EXPIRED
}
