// The mTLS stage (RFC 8705 certificate-bound access tokens), after the verify: for an
// issuer with `mtls`, the token's cnf["x5t#S256"] must name the client certificate of
// this connection, as Cloudflare reports it in request.cf.tlsClientAuth. build.ts adds
// it only when some issuer sets `mtls`. A bound token of an issuer without `mtls` is
// refused elsewhere (sender-constraint.ts): a binding nobody proved never passes.
//
// The certificate must also have passed Cloudflare's own check (`certVerified` is
// "SUCCESS", `certRevoked` is "0"): RFC 8705 §2.1 (PKI) mode, the one the zone's
// mTLS setup gives. §2.2 self-signed certificates come in as "FAILED:self signed
// certificate" and are refused: no setting turns that check off.

import { ownClaim } from '../../../claims.js';
import { checkCertificateBinding } from '../../../keys/cert-binding.js';
import { isJwtError } from '../../../errors.js';
import type { AfterVerifyStage } from '../../stage.js';
import type { CounterName } from '../../counters.js';
import type { MtlsMode } from './mtls-config.js';
import { withTiming } from '../observe/observe.js';
import type { RejectionCode } from '../observe/rejection-log.js';
import * as answer from '../../responses.js';

/**
 * The slice of `request.cf.tlsClientAuth` read here (Cloudflare's placeholder without a certificate has "" and "NONE").
 */
interface ClientAuth {
  certFingerprintSHA256?: unknown;
  certVerified?: unknown;
  certRevoked?: unknown;
}

const NO_CERTIFICATE = 'A client certificate is required';
const NOT_BOUND = 'The access token is not bound to this client certificate';

/**
 * The stage for the issuers that set `mtls`; sets `cx.proven.x5t` when the binding holds.
 * Refusals are 401 `invalid_token` with the rejection code `ERR_MTLS_*` or
 * `mtls_cert_unverified`; no fingerprint or token in the answer or the log.
 *
 * @example
 * if (config.issuers.some((is) => is.mtls !== undefined)) stages.push(mtlsStage(config.issuers, config.realm));
 */
export function mtlsStage(
  issuers: readonly { issuer: readonly string[]; mtls?: MtlsMode | undefined }[],
  realm: string,
): AfterVerifyStage {
  const modes = new Map<string, MtlsMode>();
  for (const is of issuers) if (is.mtls !== undefined) for (const name of is.issuer) modes.set(name, is.mtls);
  return (cx, id, observe) => {
    const mode = modes.get(id.issuer);
    if (mode === undefined) return undefined;
    const cnf = ownClaim(id.payload, 'cnf');
    const x5t =
      typeof cnf === 'object' && cnf !== null ? ownClaim(cnf as Record<string, unknown>, 'x5t#S256') : undefined;
    // Any x5t#S256 member makes the token bound (a malformed one is refused below, never ignored).
    if (x5t === undefined && mode === 'allowed') return undefined;
    const refuse = (code: RejectionCode, description: string) => {
      observe.count(`rejected:${code}` as CounterName);
      return observe.refuse(cx, withTiming(answer.invalidToken(realm, description), id.timing), {
        code,
        status: 401,
        claim: 'cnf',
        iss: id.issuer,
      });
    };
    const auth = (cx.request as Request & { cf?: { tlsClientAuth?: ClientAuth } }).cf?.tlsClientAuth;
    const fingerprint = auth?.certFingerprintSHA256;
    try {
      checkCertificateBinding(id.payload, typeof fingerprint === 'string' ? fingerprint : undefined);
    } catch (e) {
      if (!isJwtError(e)) throw e;
      return refuse(e.code, e.code === 'ERR_MTLS_CERT_MISSING' ? NO_CERTIFICATE : NOT_BOUND);
    }
    // The thumbprint matched; the certificate itself must have passed the edge's check, and be known not revoked (fail
    // closed).
    if (auth?.certVerified !== 'SUCCESS' || auth.certRevoked !== '0') return refuse('mtls_cert_unverified', NOT_BOUND);
    cx.proven.x5t = x5t as string;
    return undefined;
  };
}
