import { createSigner, createVerifier } from 'edgejwt';

// An HS256 secret: random bytes, at least as long as the hash (32 bytes).
const secret = crypto.getRandomValues(new Uint8Array(32));

const signer = createSigner({ alg: 'HS256', key: secret, header: { kid: 'k1' } });
const token = signer.signSync(
  { sub: 'alice', scope: 'read' },
  { expiresIn: 300, issuer: 'https://auth.example', audience: 'api' },
);

const verifier = createVerifier({
  algorithms: ['HS256'],
  key: secret,
  issuer: 'https://auth.example',
  audience: 'api',
});
console.log(verifier.verifySync(token).payload.sub); // → alice

// EdDSA with a WebCrypto key pair: sign with the private key, verify with the public JWK.
const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
const jwt = await createSigner({ alg: 'EdDSA', key: pair.privateKey }).sign({ sub: 'bob' }, { expiresIn: 60 });
const publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
const { payload } = await createVerifier({ algorithms: ['EdDSA'], key: publicJwk }).verify(jwt);
console.log(payload.sub); // → bob
