// The payload JSON a signer emits: the caller's claims plus the registered claims
// from the sign options. Claims are appended to JSON.stringify's text rather than
// copied into a new object (the common case); only a clash with a member the
// payload already has takes the copy-and-stringify path. Output is what the
// verifier accepts: a JSON object, time claims finite numbers.

import { JwtError } from '../errors.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';
import { optionsError as invalid } from '../options-error.js';

/** Per-call options of `sign` / `signSync`. Times are in seconds. */
export interface SignOptions {
  /** Extra protected header members (`alg` is fixed by the signer; `crit` and `b64` are refused). */
  header?: Record<string, unknown>;
  /** Seconds from `iat` to `exp`. */
  expiresIn?: number;
  /** Seconds from `iat` to `nbf`. */
  notBefore?: number;
  issuer?: string;
  audience?: string | readonly string[];
  subject?: string;
  jwtId?: string;
  /** Seconds since the epoch; default now (unless the payload carries its own `iat`); `false` leaves `iat` out. */
  iat?: number | false;
}

/**
 * The names sign and signSync accepts: checkOptionNames refuses any other (a misspelt option would turn a check off).
 */
export const SIGN_OPTION_NAMES = {
  header: true,
  expiresIn: true,
  notBefore: true,
  issuer: true,
  audience: true,
  subject: true,
  jwtId: true,
  iat: true,
} as const satisfies OptionNames<SignOptions>;

function finite(v: unknown, setting: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(setting, 'expected a finite number of seconds');
  return v;
}

/** A duration option (expiresIn, notBefore): whole seconds, as every duration option of the library. */
function wholeSeconds(v: unknown, setting: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(setting, 'expected whole seconds (an integer)');
  return v;
}

function text(v: unknown, setting: string): string {
  if (typeof v !== 'string' || v.length === 0) throw invalid(setting, 'expected a non-empty string');
  return v;
}

/** A plain object (not an array, Date, Map, class instance): the only JWT claims set. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function timeMember(v: unknown, name: string): void {
  if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: `${name} must be a finite number` });
}

/**
 * The claims JSON in two parts: the payload's JSON text, and members to insert before
 * its closing brace (",name:value...", or '' for none). The HMAC signer writes both
 * where they go without joining them first; see claimsJson for the whole text.
 */
export interface ClaimsText {
  json: string;
  extra: string;
}

/** The payload's JSON text with the claims of `o` set; `nowSec` is used for a default `iat`. */
export function claimsJson(payload: unknown, o: SignOptions | undefined, nowSec: number): string {
  const c = claimsText(payload, o, nowSec);
  return c.extra === '' ? c.json : appendMembers(c.json, c.extra);
}

/** claimsJson in its two parts (ClaimsText). */
export function claimsText(payload: unknown, o: SignOptions | undefined, nowSec: number): ClaimsText {
  if (!isPlainObject(payload))
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'payload must be a plain object' });
  const p = payload;
  // The verifier refuses time claims that are not finite numbers: never emit one.
  timeMember(p.exp, 'exp');
  timeMember(p.nbf, 'nbf');
  timeMember(p.iat, 'iat');
  let json: string;
  try {
    json = JSON.stringify(p);
  } catch {
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'payload is not serialisable as JSON' });
  }
  // A toJSON member could turn the object into anything else.
  if (json === undefined || json.charCodeAt(0) !== 0x7b)
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'payload must serialise to a JSON object' });

  // No options (the common call): only the default iat, appended to the text.
  if (o === undefined) return parts(json, p.iat === undefined ? timeMembers(nowSec, undefined, undefined) : '');
  checkOptionNames(o, SIGN_OPTION_NAMES);
  // The claims to set, as JSON text to append (no per-call closures: this is the signSync hot path).
  let clash = false;
  let iat: number | undefined;
  let newIat: number | undefined;
  const i = o.iat;
  if (i === false) iat = undefined;
  else if (i !== undefined) {
    iat = newIat = finite(i, 'iat');
    clash = p.iat !== undefined;
  } else if (p.iat === undefined) iat = newIat = nowSec;
  else iat = p.iat as number;
  const base = iat ?? nowSec;
  let exp: number | undefined;
  let nbf: number | undefined;
  if (o.expiresIn !== undefined) {
    exp = base + wholeSeconds(o.expiresIn, 'expiresIn');
    clash ||= p.exp !== undefined;
  }
  if (o.notBefore !== undefined) {
    nbf = base + wholeSeconds(o.notBefore, 'notBefore');
    clash ||= p.nbf !== undefined;
  }
  let extra = timeMembers(newIat, exp, nbf);
  if (o.issuer !== undefined) {
    extra += `,"iss":${JSON.stringify(text(o.issuer, 'issuer'))}`;
    clash ||= p.iss !== undefined;
  }
  if (o.subject !== undefined) {
    extra += `,"sub":${JSON.stringify(text(o.subject, 'subject'))}`;
    clash ||= p.sub !== undefined;
  }
  if (o.jwtId !== undefined) {
    extra += `,"jti":${JSON.stringify(text(o.jwtId, 'jwtId'))}`;
    clash ||= p.jti !== undefined;
  }
  if (o.audience !== undefined) {
    const a = o.audience;
    const ok =
      typeof a === 'string'
        ? a.length > 0
        : Array.isArray(a) && a.length > 0 && a.every((x) => typeof x === 'string' && x.length > 0);
    if (!ok) throw invalid('audience', 'expected a non-empty string or array of strings');
    extra += `,"aud":${JSON.stringify(a)}`;
    clash ||= p.aud !== undefined;
  }
  if (!clash) return parts(json, extra);
  // A member the payload already has: the option wins, in the payload's member order.
  return {
    json: JSON.stringify({ ...p, ...(JSON.parse(`{${extra.slice(1)}}`) as Record<string, unknown>) }),
    extra: '',
  };
}

// The time members' text of the last call and the values it was made from: a signer
// called with the same options makes the same text for a whole second. Kept flat
// (Array#join): Node's UTF-8 writer copies a flat string into the core several times
// faster than the cons string template concatenation makes (measured ~25 vs ~130 ns).
let lastIat: number | undefined = NaN;
let lastExp: number | undefined = NaN;
let lastNbf: number | undefined = NaN;
let lastTimes = '';

/** `,"iat":…,"exp":…,"nbf":…` for the members that are set (in that order), or ''. */
function timeMembers(iat: number | undefined, exp: number | undefined, nbf: number | undefined): string {
  // NaN (the initial state) equals nothing; -0 and 0 print alike.
  if (iat === lastIat && exp === lastExp && nbf === lastNbf) return lastTimes;
  const text: (string | number)[] = [];
  if (iat !== undefined) text.push(',"iat":', iat);
  if (exp !== undefined) text.push(',"exp":', exp);
  if (nbf !== undefined) text.push(',"nbf":', nbf);
  lastIat = iat;
  lastExp = exp;
  lastNbf = nbf;
  lastTimes = text.join('');
  return lastTimes;
}

/** `json` and `extra` as ClaimsText; an empty object takes its members whole (no leading comma to drop later). */
function parts(json: string, extra: string): ClaimsText {
  return json.length === 2 && extra !== '' ? { json: `{${extra.slice(1)}}`, extra: '' } : { json, extra };
}

/** `json` (a non-empty object's text) with `extra` (",name:value..." text) before its closing brace. */
function appendMembers(json: string, extra: string): string {
  return json.slice(0, -1) + extra + '}';
}
