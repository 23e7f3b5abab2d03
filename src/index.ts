// edgejwt: strict, fast JWT verification for edge runtimes.
export { createVerifier } from './verifier.js';
export type {
  Verifier,
  RawVerifier,
  VerifierOptions,
  VerifierSettings,
  MultiIssuerOptions,
  VerifyResult,
  IssuerPolicy,
} from './verifier.js';
export type { PolicyOptions, PolicySettings, KeyOptions } from './options.js';
export type { Algorithm } from './algorithms.js';
export { createLocalJWKSet, LocalJWKSet } from './keys/local.js';
export type { JSONWebKeySet, LocalSetOptions } from './keys/local.js';
export { createRemoteJWKSet, RemoteJWKSet } from './keys/remote.js';
export type { RemoteJWKSetOptions } from './keys/remote.js';
export type { FetchAttempt, JWKSStore, StoredJWKS } from './keys/store.js';
export { cacheApiStore, type CacheApiStoreOptions, type CacheLike } from './keys/cache-store.js';
export { createSealer, type Sealer } from './keys/seal.js';
export type { JWK, KeyInput } from './keys/entry.js';
export { decodeUnverified } from './decode.js';
export type { UnverifiedToken } from './decode.js';
export { JwtError, isJwtError, ERROR_MESSAGES } from './errors.js';
export type { JwtErrorCode, JwtErrorDetails } from './errors.js';
export type { JWTPayload } from './claims.js';
export type { JoseHeader } from './header.js';
export type { CacheOptions } from './cache.js';
export { SUPPORTED_ALGORITHMS } from './algorithms.js';
export { createSigner } from './sign/signer.js';
export type { Signer, SignerOptions, SignOptions, SignerKeyInput, PrivateJWK } from './sign/signer.js';
export { createEncrypter } from './jwe/encrypter.js';
export type { Encrypter, EncrypterOptions } from './jwe/encrypter.js';
export type { DecryptionOptions, IssuerBoundKey } from './jwe/decrypt.js';
export { jweDecryption } from './jwe/decryption.js';
export type { JweDecryption } from './jwe/decryption.js';
export type { EncryptionJWK, EncryptionKeyInput } from './jwe/keys.js';
export { jwkThumbprint } from './keys/thumbprint.js';
export { verifyDpopProof, dpopReplayKey } from './dpop/proof.js';
export type { DpopProof } from './dpop/proof.js';
export type { DpopProofOptions, DpopAlgorithm } from './dpop/options.js';
export { checkDpopBinding, dpopAccessTokenHash } from './dpop/binding.js';
export { htuForm } from './dpop/htu.js';
export { checkCertificateBinding } from './keys/cert-binding.js';
