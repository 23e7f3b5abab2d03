// The JWE step of a verifier built with `decryption`: open the JWE, then send a nested
// JWS through the whole verify again and direct claims through the claim checks alone,
// under the policy of the issuer the opening key is bound to. It lives here, reached
// through the value jweDecryption makes, so a verifier without JWE bundles none of it;
// the verifier lends it its policies and steps (JweHost).

import { JwtError } from '../errors.js';
import { jweError } from './error.js';
import { optionsError } from '../options-error.js';
import { parsePayloadText } from '../payload.js';
import { isSymmetric } from './algorithms.js';
import type { Decryptor, OpenedJwe } from './decrypt.js';
import { checkReplicated } from './replicated.js';

type Maybe<T> = T | Promise<T>;

/** The part of a verify policy the JWE step reads: which issuers it accepts (undefined: any). */
export interface JwePolicy {
  readonly claims: { readonly issuer?: ReadonlySet<string> | undefined };
}

/**
 * What the verifier lends the JWE step (verify-path.ts builds it): its policies and
 * the verify steps a decrypted token goes on through.
 * @example
 * const host: JweHost<VerifyResult, Policy> = {
 *   raw: false,
 *   single,
 *   byIssuer,
 *   now: Date.now,
 *   verify,
 *   verifySync,
 *   claims,
 * };
 */
export interface JweHost<R, P extends JwePolicy> {
  /** rawPayload: only signed payloads are verified, so direct claims are refused. */
  readonly raw: boolean;
  /** The one policy, or undefined with `issuers`. */
  readonly single: P | undefined;
  readonly byIssuer: ReadonlyMap<string, P>;
  /** The verifier's clock, ms. */
  now(): number;
  /** The whole verify of a nested JWS (a promise where a step waits). */
  verify(token: string): Maybe<R>;
  /** The whole verify of a nested JWS without a promise (ERR_ASYNC_REQUIRED where a step would wait). */
  verifySync(token: string): R;
  /** The claim checks alone, on direct claims the opening key's issuer vouches for (never cached). */
  claims(
    token: string,
    header: Readonly<Record<string, unknown>>,
    alg: string,
    kid: string | undefined,
    payload: Record<string, unknown>,
    text: string,
    policy: P,
    nowMs: number,
  ): R;
}

/**
 * A verifier's JWE step: `verify` and `verifySync` of a token `isCompactJwe` accepted.
 * @example
 * if (step.isCompactJwe(token)) return step.verify(token);
 */
export interface JweStep<R> {
  isCompactJwe(token: unknown): token is string;
  /** Throws what is found without waiting; a promise when the decrypt or the nested verify waits. */
  verify(token: string): Maybe<R>;
  verifySync(token: string): R;
}

/**
 * The JWE step over `decryptor` for the verifier `host` describes. Every issuer a key
 * is bound to must be one the verifier accepts (ERR_OPTIONS_INVALID otherwise).
 * @example
 * const step = jweStep(createDecryptor(options, maxLength), isCompactJwe, host);
 */
export function jweStep<R extends { readonly payload: unknown }, P extends JwePolicy>(
  decryptor: Decryptor,
  isCompactJwe: (token: unknown) => token is string,
  host: JweHost<R, P>,
): JweStep<R> {
  for (const iss of decryptor.issuers) {
    const known =
      host.single === undefined
        ? host.byIssuer.has(iss)
        : host.single.claims.issuer === undefined || host.single.claims.issuer.has(iss);
    if (!known) throw optionsError('decryption.keys', 'a key is bound to an issuer this verifier does not accept');
  }

  /** A nested JWT's verified payload against the claims its JWE header replicates (RFC 7519 §5.3). */
  const replicated = (header: Readonly<Record<string, unknown>>, result: R): R => {
    checkReplicated(header, result.payload as Record<string, unknown>);
    return result;
  };

  /**
   * The policy unsigned claims are checked under: that of the issuer the opening key is
   * bound to, never one their own `iss` names (RFC 8725 §3.8, §3.11). An unbound key
   * stands for the verifier's one policy only when that policy names at most one issuer.
   */
  const directPolicy = (bound: string | undefined, payload: Record<string, unknown>): P => {
    const unbound = (): JwtError =>
      jweError('ERR_JWE_NESTED_REQUIRED', { reason: 'direct claims need a decryption key bound to one issuer' });
    let policy = host.single;
    if (bound === undefined) {
      if (policy === undefined || (policy.claims.issuer !== undefined && policy.claims.issuer.size > 1))
        throw unbound();
      return policy;
    }
    policy ??= host.byIssuer.get(bound);
    // jweStep made sure a bound issuer has a policy; this only keeps a mistake there from accepting.
    if (policy === undefined) throw unbound();
    if (!Object.hasOwn(payload, 'iss') || payload.iss !== bound) {
      throw new JwtError('ERR_JWT_CLAIM_INVALID', {
        claim: 'iss',
        reason: 'not the issuer the decryption key is bound to',
      });
    }
    return policy;
  };

  /** A decrypted JWE: a nested JWS goes through the whole verify; direct claims only through the claim checks. */
  const afterDecrypt = (token: string, opened: OpenedJwe): Maybe<R> => {
    const h = opened.header;
    if (h.nested) {
      const inner = host.verify(opened.plaintext);
      return inner instanceof Promise ? inner.then((r) => replicated(h.header, r)) : replicated(h.header, inner);
    }
    // Anyone holding the public key can encrypt to it: without a signature inside, such claims prove nothing.
    if (!isSymmetric(h.alg)) throw jweError('ERR_JWE_NESTED_REQUIRED');
    if (host.raw) throw jweError('ERR_JWE_NESTED_REQUIRED', { reason: 'rawPayload verifies signed payloads only' });
    const nowMs = host.now();
    const payload = parsePayloadText(opened.plaintext);
    const policy = directPolicy(opened.issuer, payload);
    checkReplicated(h.header, payload);
    return host.claims(token, h.header, h.alg, h.kid, payload, opened.plaintext, policy, nowMs);
  };

  return {
    isCompactJwe,
    verify(token: string): Maybe<R> {
      const opened = decryptor.open(token);
      return opened instanceof Promise ? opened.then((o) => afterDecrypt(token, o)) : afterDecrypt(token, opened);
    },
    /**
     * It answers where the decrypt does not wait (a `dir` key with node:crypto's
     * synchronous cipher); WebCrypto's decrypt and the key-wrapping algorithms always
     * return a promise, so there it is ERR_ASYNC_REQUIRED.
     */
    verifySync(token: string): R {
      const opened = decryptor.open(token);
      if (opened instanceof Promise) {
        opened.catch(() => undefined);
        throw new JwtError('ERR_ASYNC_REQUIRED', { reason: 'this JWE is decrypted through WebCrypto here' });
      }
      if (opened.header.nested) return replicated(opened.header.header, host.verifySync(opened.plaintext));
      return afterDecrypt(token, opened) as R;
    },
  };
}
