// verifyDpopProof's options, checked on every call (they are a handful of fields):
// a misspelt name or a wrong type is ERR_OPTIONS_INVALID, never a check turned off.

import { algSpec, type AlgSpec, type Algorithm } from '../algorithms.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';
import { optionsError } from '../options-error.js';
import { htuForm } from './htu.js';

/**
 * An `alg` a DPoP proof may use: the asymmetric JWS algorithms (RFC 9449 §4.2 rules
 * out MAC algorithms and `none`).
 * @example
 * const algorithms: DpopAlgorithm[] = ['ES256', 'EdDSA'];
 */
export type DpopAlgorithm = Exclude<Algorithm, 'HS256' | 'HS384' | 'HS512'>;

/**
 * What a proof is checked against: the request it came with and the policy.
 * @example
 * const options: DpopProofOptions = { method: request.method, url: request.url, algorithms: ['ES256'], accessToken };
 */
export interface DpopProofOptions {
  /** The request's method, compared exactly (case-sensitive, RFC 9110 §9.1) with `htm`. */
  method: string;
  /**
   * The request's absolute http(s) URL; its query and fragment are ignored (see htuForm).
   * Not a string or URL, or not starting `http://`/`https://`: ERR_OPTIONS_INVALID; one
   * htuForm cannot read (userinfo, a bad host, too long): every proof is ERR_DPOP_HTU_MISMATCH.
   */
  url: string | URL;
  /** Allowed proof algorithms (required, non-empty, asymmetric only). */
  algorithms: readonly DpopAlgorithm[];
  /** The access token sent with the proof: then `ath` is required and must be its hash. */
  accessToken?: string;
  /** The nonce (or nonces) the server handed out: then the proof's `nonce` must be one of them. */
  nonce?: string | readonly string[];
  /** Seconds: the oldest `iat` accepted is now − maxAge (default 60). */
  maxAge?: number;
  /** Seconds of clock skew allowed each way on `iat` (default 5). */
  clockTolerance?: number;
  /** Longest proof accepted, in characters (default 8192). */
  maxProofLength?: number;
  /** Fixed "now" (tests, replays). Default: the clock at the call. */
  currentDate?: Date;
}

const DPOP_OPTION_NAMES = {
  method: true,
  url: true,
  algorithms: true,
  accessToken: true,
  nonce: true,
  maxAge: true,
  clockTolerance: true,
  maxProofLength: true,
  currentDate: true,
} as const satisfies OptionNames<Required<DpopProofOptions>>;

/** The options, checked and in the form the checks use. */
export interface DpopPolicy {
  method: string;
  /** htuForm of the request URL; undefined when the request URL names nothing comparable (no proof matches). */
  htu: string | undefined;
  specs: ReadonlyMap<string, AlgSpec>;
  accessToken: string | undefined;
  nonces: readonly string[] | undefined;
  maxAge: number;
  tolerance: number;
  maxLength: number;
  /** Seconds. */
  now: number;
}

function seconds(value: unknown, setting: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw optionsError(setting, 'expected a finite number of seconds');
  return value;
}

export function dpopPolicy(o: DpopProofOptions): DpopPolicy {
  if (typeof o !== 'object' || o === null) throw optionsError('options');
  checkOptionNames(o, DPOP_OPTION_NAMES);
  if (typeof o.method !== 'string' || o.method.length === 0) throw optionsError('method');
  const url = o.url instanceof URL ? o.url.href : o.url;
  // Passing no URL, a path or another scheme is the caller's mistake. What an absolute
  // http(s) URL then carries (userinfo or a bad host from a Host header, its length)
  // came with the request: such a request has no htu a proof can name (htu mismatch),
  // not an options fault that callers answer as the server's (500).
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url))
    throw optionsError('url', 'expected an absolute http(s) URL');
  const htu = htuForm(url);
  if (!Array.isArray(o.algorithms) || o.algorithms.length === 0)
    throw optionsError('algorithms', 'a non-empty allow-list is required');
  const specs = new Map<string, AlgSpec>();
  for (const a of o.algorithms as unknown[]) {
    const s = typeof a === 'string' ? algSpec(a) : undefined;
    if (s === undefined || s.engine === 'hmac') throw optionsError('algorithms', 'asymmetric algorithms only');
    specs.set(s.alg, s);
  }
  if (o.accessToken !== undefined && (typeof o.accessToken !== 'string' || o.accessToken.length === 0))
    throw optionsError('accessToken');
  let nonces: readonly string[] | undefined;
  if (o.nonce !== undefined) {
    nonces = typeof o.nonce === 'string' ? [o.nonce] : o.nonce;
    if (!Array.isArray(nonces) || nonces.length === 0 || nonces.some((n) => typeof n !== 'string' || n.length === 0))
      throw optionsError('nonce');
  }
  const maxLength = o.maxProofLength ?? 8192;
  if (!Number.isInteger(maxLength) || maxLength < 16 || maxLength > 65_536) throw optionsError('maxProofLength');
  const fixed = o.currentDate;
  if (fixed !== undefined && (!(fixed instanceof Date) || Number.isNaN(fixed.getTime())))
    throw optionsError('currentDate');
  return {
    method: o.method,
    htu,
    specs,
    accessToken: o.accessToken,
    nonces,
    maxAge: seconds(o.maxAge, 'maxAge', 60),
    tolerance: seconds(o.clockTolerance, 'clockTolerance', 5),
    maxLength,
    now: (fixed === undefined ? Date.now() : fixed.getTime()) / 1000,
  };
}
