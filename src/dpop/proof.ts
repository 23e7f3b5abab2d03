// DPoP proof verification (RFC 9449 §4.3), the library layer: one proof against
// one request. Header first (typ, alg, the public jwk), then the signature under
// that jwk through the library's own key import and signature step, and only then
// the claims (htm, htu, iat, jti, nonce, ath). Replay (remembering jti) and the
// access token's cnf.jkt are the caller's: the result carries what they need.

import type { AlgSpec } from '../algorithms.js';
import { encode } from '../b64.js';
import { ownClaim } from '../claims.js';
import { digest } from '../digest.js';
import { JwtError, type JwtErrorCode } from '../errors.js';
import { dpopError } from './error.js';
import { parseHeaderOnce, type JoseHeader } from '../header.js';
import { split } from '../jws.js';
import type { KeyEntry } from '../keys/entry.js';
import { keyEntryFromJwk } from '../keys/from-input.js';
import { jwkThumbprint } from '../keys/thumbprint.js';
import { parsePayloadText } from '../payload.js';
import type { Handle } from '../signature.js';
import { getCore } from '../wasm/instance.js';
import type { DecodedJws } from '../wasm/core.js';
import { dpopAccessTokenHash } from './binding.js';
import { htuForm } from './htu.js';
import { dpopPolicy, type DpopPolicy, type DpopProofOptions } from './options.js';

/**
 * A verified DPoP proof. `jkt` is the RFC 7638 thumbprint of the proof's key (compare
 * it with the access token's `cnf.jkt`: checkDpopBinding); `replayKey` is what a
 * replay store should remember until `iat + maxAge + clockTolerance` has passed.
 *
 * @example
 * const proof: DpopProof = await verifyDpopProof(dpopHeader, options);
 * if (!(await replayStore.add(proof.replayKey))) throw new Error('replayed');
 */
export interface DpopProof {
  /** The proof key's RFC 7638 SHA-256 thumbprint, base64url. */
  readonly jkt: string;
  /** The proof's `jti`. */
  readonly jti: string;
  /** The proof's `iat`, seconds. */
  readonly iat: number;
  /** The proof's `htm` (equal to the request method). */
  readonly htm: string;
  /** The proof's `htu`, as sent. */
  readonly htu: string;
  /** The proof's `alg`. */
  readonly alg: string;
  /** The proof's `nonce`, when it carries one. */
  readonly nonce: string | undefined;
  /**
   * base64url(SHA-256(jkt + "." + jti)): one value per key and jti, for a replay store.
   * Scoped to the key, so one client cannot burn another's jti.
   */
  readonly replayKey: string;
  /** The proof's public key, from its header. */
  readonly jwk: Readonly<Record<string, unknown>>;
  /** The proof's protected header and claims (frozen). */
  readonly header: JoseHeader;
  readonly payload: Readonly<Record<string, unknown>>;
}

// RFC 9449 §4.3 rule 7: a jwk carrying any private (or symmetric) member is refused.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
// With the u flag a surrogate range matches only a surrogate that is not half of a pair.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
/** Longest jti accepted: RFC 9449 §4.2 asks for 96 random bits; a replay store should not hold kilobytes. */
export const MAX_JTI_LENGTH = 256;

// Imported keys by `alg:jkt`: a client signs every request with the same key, so
// its proofs after the first skip the import. The jkt is a hash of exactly the
// members the import reads, so one entry is one key. Bounded, oldest out first.
const HANDLE_CACHE_MAX = 256;
const handles = new Map<string, Handle | Promise<Handle>>();

// The same client sends the same header segment (typ, alg, jwk) with every proof, so
// what a header segment was found to be is kept by its exact text: the parse, the
// thumbprint and the JWK rules (the EC on-curve check, RSA parameters) run once per
// client key, not per request. Only a header that passed every check that reads the
// header alone is kept; what depends on the call's options (alg allowed, key fits
// alg) is checked on every call. Same size bound as the handles; long segments are not kept.
interface KnownHeader {
  readonly header: JoseHeader;
  readonly alg: string;
  readonly jkt: string;
  readonly entry: KeyEntry;
}
const HEADER_KEEP_MAX_LENGTH = 2048;
const knownHeaders = new Map<string, KnownHeader>();

function fail(code: Parameters<typeof dpopError>[0], reason?: string, cause?: unknown): JwtError {
  return dpopError(code, { ...(reason === undefined ? {} : { reason }), ...(cause === undefined ? {} : { cause }) });
}

/**
 * Verify a DPoP proof (the `DPoP` request header, RFC 9449 §4.3) for one request:
 * `typ` is exactly `dpop+jwt`; `alg` is asymmetric and in `algorithms`; the header's
 * `jwk` is a public key (no private member) that fits `alg`, and the signature
 * verifies under it; `htm` equals `method`; `htu` equals `url` without query and
 * fragment (see htuForm for what is normalised); `iat` lies in
 * [now − maxAge − clockTolerance, now + clockTolerance]; `jti` is a non-empty string
 * of at most 256 characters without a lone surrogate; with `accessToken`, `ath` is
 * its hash; with `nonce`,
 * the proof's `nonce` is one of them. Each failure is a JwtError with its own
 * `ERR_DPOP_*` code (a bad option is ERR_OPTIONS_INVALID); no message carries the
 * proof, the token or a key.
 *
 * Not done here: the replay check (store `replayKey`, refuse one seen before), the
 * binding of the access token (checkDpopBinding), and the rule that a request carries
 * exactly one `DPoP` header (the caller reads the headers).
 *
 * @example
 * const proof = await verifyDpopProof(request.headers.get('dpop') ?? '', {
 *   method: request.method,
 *   url: request.url,
 *   algorithms: ['ES256', 'EdDSA'],
 *   accessToken, // from `Authorization: DPoP <token>`
 * });
 * checkDpopBinding(accessTokenPayload, proof);
 * if (!(await seen.add(proof.replayKey))) return new Response('replayed proof', { status: 401 });
 */
export async function verifyDpopProof(proof: string, options: DpopProofOptions): Promise<DpopProof> {
  const policy = dpopPolicy(options);
  if (typeof proof !== 'string') throw fail('ERR_DPOP_PROOF_INVALID', 'the proof must be a string');

  // Bound and split.
  let payloadEnd: number;
  let headerEnd: number;
  try {
    ({ headerEnd, payloadEnd } = split(proof, policy.maxLength));
  } catch (cause) {
    throw fail('ERR_DPOP_PROOF_INVALID', undefined, cause);
  }
  const segment = proof.slice(0, headerEnd);
  const { header, alg, jkt, entry } = knownHeaders.get(segment) ?? readHeader(proof, headerEnd, policy, segment);
  const spec = policy.specs.get(alg);
  if (spec === undefined) throw fail('ERR_DPOP_ALG_NOT_ALLOWED');
  if (!entry.fits(spec)) throw fail('ERR_DPOP_JWK_INVALID', 'jwk does not fit alg');

  // Signature.
  let jws: DecodedJws;
  try {
    jws = getCore().decodeJws(proof, headerEnd, payloadEnd);
  } catch (cause) {
    throw fail('ERR_DPOP_PROOF_INVALID', undefined, cause);
  }
  if (spec.sigLength !== 0 && jws.signatureLength !== spec.sigLength) throw fail('ERR_DPOP_SIGNATURE_INVALID');
  let ok: boolean;
  try {
    ok = await (await handleFor(`${spec.alg}:${jkt}`, entry, spec)).verify(jws);
  } catch (cause) {
    throw fail('ERR_DPOP_JWK_INVALID', 'jwk could not be imported', cause);
  }
  if (!ok) throw fail('ERR_DPOP_SIGNATURE_INVALID');

  // Claims: trusted only now.
  let payload: Record<string, unknown>;
  try {
    payload = parsePayloadText(jws.payload);
  } catch (cause) {
    throw fail('ERR_DPOP_PROOF_INVALID', undefined, cause);
  }
  const claims = checkClaims(payload, policy);
  const jwk = ownClaim(header, 'jwk') as Readonly<Record<string, unknown>>;
  return Object.freeze({
    ...claims,
    jkt,
    alg: spec.alg,
    replayKey: dpopReplayKey(jkt, claims.jti),
    jwk,
    header,
    payload: Object.freeze(payload),
  });
}

/**
 * The header's checks that read nothing but the header: parse, typ, alg allowed (by
 * `policy`, before the key is looked at, so that error comes first), the jwk public
 * only, its thumbprint and the library's JWK rules. What passes is kept by its text.
 */
function readHeader(proof: string, headerEnd: number, policy: DpopPolicy, segment: string): KnownHeader {
  let header: JoseHeader;
  let alg: string;
  try {
    ({ header, alg } = parseHeaderOnce(proof, headerEnd));
  } catch (cause) {
    throw fail('ERR_DPOP_PROOF_INVALID', undefined, cause);
  }
  if (ownClaim(header, 'typ') !== 'dpop+jwt') throw fail('ERR_DPOP_TYP_INVALID');
  if (!policy.specs.has(alg)) throw fail('ERR_DPOP_ALG_NOT_ALLOWED');

  // The key: public only; its thumbprint names it.
  const jwk = ownClaim(header, 'jwk');
  if (!isObject(jwk)) throw fail('ERR_DPOP_JWK_INVALID', 'jwk missing');
  for (const m of PRIVATE_MEMBERS)
    if (Object.hasOwn(jwk, m)) throw fail('ERR_DPOP_JWK_INVALID', 'jwk carries a private key member');
  let known: KnownHeader;
  try {
    known = { header, alg, jkt: jwkThumbprint(jwk), entry: keyEntryFromJwk(jwk) };
  } catch (cause) {
    throw fail('ERR_DPOP_JWK_INVALID', 'jwk is not a usable public key', cause);
  }
  if (segment.length <= HEADER_KEEP_MAX_LENGTH) {
    if (knownHeaders.size >= HANDLE_CACHE_MAX) knownHeaders.delete(knownHeaders.keys().next().value!);
    knownHeaders.set(segment, known);
  }
  return known;
}

/** The imported key for `id` (alg:jkt), made from `entry` on a miss. */
function handleFor(id: string, entry: KeyEntry, spec: AlgSpec): Handle | Promise<Handle> {
  const known = handles.get(id);
  if (known !== undefined) return known;
  const made = entry.handle(spec);
  if (handles.size >= HANDLE_CACHE_MAX) handles.delete(handles.keys().next().value!);
  handles.set(id, made);
  return made;
}

type CheckedClaims = Pick<DpopProof, 'jti' | 'iat' | 'htm' | 'htu' | 'nonce'>;

function checkClaims(payload: Record<string, unknown>, p: DpopPolicy): CheckedClaims {
  const htm = ownClaim(payload, 'htm');
  if (htm !== p.method) throw fail('ERR_DPOP_HTM_MISMATCH');
  const htu = ownClaim(payload, 'htu');
  if (typeof htu !== 'string' || p.htu === undefined || htuForm(htu) !== p.htu) throw fail('ERR_DPOP_HTU_MISMATCH');
  const iat = ownClaim(payload, 'iat');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw fail('ERR_DPOP_IAT_INVALID', 'missing or not a number');
  if (iat > p.now + p.tolerance) throw fail('ERR_DPOP_IAT_INVALID', 'in the future');
  if (iat < p.now - p.maxAge - p.tolerance) throw fail('ERR_DPOP_IAT_INVALID', 'too old');
  const jti = ownClaim(payload, 'jti');
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw fail('ERR_DPOP_JTI_INVALID');
  // A lone surrogate (JSON's "\ud800") is hashed as U+FFFD: two jti values would share one replayKey.
  if (LONE_SURROGATE.test(jti)) throw fail('ERR_DPOP_JTI_INVALID', 'not well-formed Unicode');
  const nonce = ownClaim(payload, 'nonce');
  if (nonce !== undefined && typeof nonce !== 'string') throw fail('ERR_DPOP_NONCE_MISMATCH', 'not a string');
  if (p.nonces !== undefined && (nonce === undefined || !p.nonces.includes(nonce))) {
    throw fail('ERR_DPOP_NONCE_MISMATCH', nonce === undefined ? 'missing' : undefined);
  }
  if (p.accessToken !== undefined) {
    const ath = ownClaim(payload, 'ath');
    if (typeof ath !== 'string') throw fail('ERR_DPOP_ATH_MISMATCH', 'missing');
    if (ath !== dpopAccessTokenHash(p.accessToken)) throw fail('ERR_DPOP_ATH_MISMATCH');
  }
  return { jti, iat, htm, htu, nonce: nonce as string | undefined };
}

/**
 * The replay key of a proof key's thumbprint and a jti (DpopProof.replayKey).
 * @example
 * dpopReplayKey(proof.jkt, proof.jti) === proof.replayKey; // true
 */
export function dpopReplayKey(jkt: string, jti: string): string {
  return encode(digest('SHA-256', `${jkt}.${jti}`));
}

function isObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
