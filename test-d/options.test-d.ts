// Type tests, run by `npm run typecheck` (tsc over this folder): each
// `@ts-expect-error` line must be an error (else tsc reports the directive as
// unused), and each `expectType` must be exactly the type named. Nothing here runs.
import {
  createVerifier,
  isJwtError,
  JwtError,
  verifyDpopProof,
  type JWTPayload,
  type JwtErrorCode,
  type VerifierOptions,
} from '../src/index.ts';

/** True only when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T>(_value: T): <U>(check: Equal<T, U> extends true ? true : never) => void {
  return () => undefined;
}

const secret = new Uint8Array(32);
const jwks = { keys: [] };

// --- Algorithm is a literal union ---
createVerifier({ algorithms: ['HS256', 'EdDSA', 'Ed25519', 'RS256', 'PS512', 'ES384'], key: secret });
// @ts-expect-error a typo is not an algorithm
createVerifier({ algorithms: ['RS265'], key: secret });
// @ts-expect-error `none` is never an algorithm
createVerifier({ algorithms: ['none'], key: secret });
// @ts-expect-error lower case is not the JWA name
createVerifier({ algorithms: ['hs256'], key: secret });

// --- exactly one of key and jwks ---
createVerifier({ algorithms: ['RS256'], jwks });
// @ts-expect-error both key and jwks
createVerifier({ algorithms: ['RS256'], key: secret, jwks });
// @ts-expect-error neither key nor jwks
createVerifier({ algorithms: ['RS256'] });
// @ts-expect-error an issuers entry needs its own key source too
createVerifier({ issuers: [{ issuer: 'a', algorithms: ['RS256'] }] });
// @ts-expect-error key beside issuers (it belongs inside each entry)
createVerifier({ key: secret, issuers: [{ issuer: 'a', algorithms: ['RS256'], jwks }] });
createVerifier({ audience: 'api', issuers: [{ issuer: 'a', algorithms: ['RS256'], jwks }] });

// --- rawPayload: true gives bytes, otherwise a claims set ---
const raw = createVerifier({ algorithms: ['EdDSA'], key: secret, rawPayload: true });
expectType(raw.verifySync('t').payload)<Uint8Array>(true);
void raw.verify('t').then((r) => expectType(r.payload)<Uint8Array>(true));
const jwt = createVerifier({ algorithms: ['HS256'], key: secret });
expectType(jwt.verifySync('t').payload)<JWTPayload>(true);
expectType(jwt.verifySync<{ sub: string }>('t').payload)<{ sub: string }>(true);
// @ts-expect-error a raw payload has no claims
void raw.verifySync('t').payload.sub;
// Options typed as VerifierOptions (rawPayload unknown at compile time) give the JWT verifier.
declare const someOptions: VerifierOptions;
expectType(createVerifier(someOptions).verifySync('t').payload)<JWTPayload>(true);

// --- isJwtError narrows to the code asked for ---
declare const e: unknown;
if (isJwtError(e, 'ERR_JWT_EXPIRED')) {
  expectType(e.code)<'ERR_JWT_EXPIRED'>(true);
  const c: 'ERR_JWT_EXPIRED' = e.code;
  void c;
}
if (isJwtError(e)) {
  expectType(e.code)<JwtErrorCode>(true);
  // @ts-expect-error without a code, any code is possible
  const c: 'ERR_JWT_EXPIRED' = e.code;
  void c;
}
// @ts-expect-error not an error code
isJwtError(e, 'ERR_NOT_A_CODE');
expectType(new JwtError('ERR_KEY_INVALID').code)<JwtErrorCode>(true);

// --- profile: 'at+jwt' is the one profile; DPoP proofs take asymmetric algorithms only ---
createVerifier({ algorithms: ['RS256'], jwks, issuer: 'https://as.example', audience: 'api', profile: 'at+jwt' });
// @ts-expect-error the profile's name is lower case
createVerifier({ algorithms: ['RS256'], jwks, issuer: 'https://as.example', audience: 'api', profile: 'AT+JWT' });
void verifyDpopProof('proof', { method: 'GET', url: 'https://api.example/x', algorithms: ['ES256', 'EdDSA'] });
// @ts-expect-error HS256 is never a DPoP proof algorithm
void verifyDpopProof('proof', { method: 'GET', url: 'https://api.example/x', algorithms: ['HS256'] });
