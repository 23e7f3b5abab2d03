import { createEncrypter, createSigner, createVerifier, jweDecryption, type EncryptionJWK } from 'edgejwt';

// The API's encryption key pair (X25519); only its public half goes to the issuer.
const recipient = (await crypto.subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as CryptoKeyPair;
// WebCrypto exports the public half with `key_ops: []` ("no use at all"), which edgejwt takes at
// its word: leave that member out of the JWK you publish. (DOM's JsonWebKey types `kty` as
// optional; edgejwt's EncryptionJWK requires it, hence the casts.)
const exported = await crypto.subtle.exportKey('jwk', recipient.publicKey);
const { key_ops: _none, ...recipientPublicJwk } = exported as EncryptionJWK;
const recipientPrivateJwk = (await crypto.subtle.exportKey('jwk', recipient.privateKey)) as EncryptionJWK;
// The issuer's signing key pair (ES256).
const p256 = { name: 'ECDSA', namedCurve: 'P-256' };
const issuer = (await crypto.subtle.generateKey(p256, true, ['sign', 'verify'])) as CryptoKeyPair;

// Issuer: sign, then encrypt the signed token to the API (a nested JWT, cty "JWT").
const jws = await createSigner({ alg: 'ES256', key: issuer.privateKey }).sign({ sub: 'carol' }, { expiresIn: 300 });
const jwe = await createEncrypter({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', key: recipientPublicJwk }).encrypt(jws);

// API: one verifier decrypts, then verifies the signature and the claims inside.
const verifier = createVerifier({
  algorithms: ['ES256'],
  key: await crypto.subtle.exportKey('jwk', issuer.publicKey),
  decryption: jweDecryption({ keys: [recipientPrivateJwk], algorithms: ['ECDH-ES+A256KW'], encryptions: ['A256GCM'] }),
});
const { payload } = await verifier.verify(jwe);
console.log(payload.sub); // → carol
