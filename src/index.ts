// edgejwt: strict, fast JWT verification for edge runtimes.
export { createVerifier } from './verifier.js';
export type { Verifier, VerifierOptions, VerifyResult, IssuerPolicy } from './verifier.js';
export type { PolicyOptions } from './options.js';
export { createLocalJWKSet, LocalJWKSet } from './keys/local.js';
export type { JSONWebKeySet, LocalSetOptions } from './keys/local.js';
export { createRemoteJWKSet, RemoteJWKSet } from './keys/remote.js';
export type { JWKSStore, RemoteJWKSetOptions } from './keys/remote.js';
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
