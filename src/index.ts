// edgejwt: strict, fast JWT verification for edge runtimes.
export { createVerifier } from './verifier.js';
export type { Verifier, RawVerifier, VerifierOptions, VerifierSettings, MultiIssuerOptions, VerifyResult, IssuerPolicy } from './verifier.js';
export type { PolicyOptions, PolicySettings, KeyOptions } from './options.js';
export type { Algorithm } from './algorithms.js';
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
