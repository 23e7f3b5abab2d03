// The payload JSON a signer emits: the caller's claims plus the registered claims
// from the sign options. Claims are appended to JSON.stringify's text rather than
// copied into a new object (the common case); only a clash with a member the
// payload already has takes the copy-and-stringify path. Output is what the
// verifier accepts: a JSON object, time claims finite numbers.

import { JwtError } from '../errors.js';
import { SIGN_OPTION_NAMES, checkOptionNames } from '../option-names.js';
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

function finite(v: unknown, setting: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(setting, 'expected a finite number of seconds');
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
  if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: `${name} must be a finite number` });
}

/** The payload's JSON text with the claims of `o` set; `nowSec` is used for a default `iat`. */
export function claimsJson(payload: unknown, o: SignOptions | undefined, nowSec: number): string {
  if (!isPlainObject(payload)) throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'payload must be a plain object' });
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
  if (json === undefined || json.charCodeAt(0) !== 0x7b) throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'payload must serialise to a JSON object' });

  // No options (the common call): only the default iat, appended to the text.
  if (o === undefined) return p.iat === undefined ? appendMembers(json, `,"iat":${nowSec}`) : json;
  checkOptionNames(o, SIGN_OPTION_NAMES);
  // The claims to set, as JSON text to append (no per-call arrays or closures: this is the signSync hot path).
  let extra = '';
  let clash = false;
  let iat: number | undefined;
  const i = o.iat;
  if (i === false) iat = undefined;
  else if (i !== undefined) {
    iat = finite(i, 'iat');
    extra += `,"iat":${iat}`;
    clash = p.iat !== undefined;
  } else if (p.iat === undefined) {
    iat = nowSec;
    extra += `,"iat":${nowSec}`;
  } else iat = p.iat as number;
  const base = iat ?? nowSec;
  if (o.expiresIn !== undefined) {
    extra += `,"exp":${base + finite(o.expiresIn, 'expiresIn')}`;
    clash ||= p.exp !== undefined;
  }
  if (o.notBefore !== undefined) {
    extra += `,"nbf":${base + finite(o.notBefore, 'notBefore')}`;
    clash ||= p.nbf !== undefined;
  }
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
    const ok = typeof a === 'string' ? a.length > 0 : Array.isArray(a) && a.length > 0 && a.every((x) => typeof x === 'string' && x.length > 0);
    if (!ok) throw invalid('audience', 'expected a non-empty string or array of strings');
    extra += `,"aud":${JSON.stringify(a)}`;
    clash ||= p.aud !== undefined;
  }
  if (extra === '') return json;
  if (!clash) return appendMembers(json, extra);
  // A member the payload already has: the option wins, in the payload's member order.
  return JSON.stringify({ ...p, ...(JSON.parse(`{${extra.slice(1)}}`) as Record<string, unknown>) });
}

/** `json` (an object's text) with `extra` (",name:value..." text) before its closing brace. */
function appendMembers(json: string, extra: string): string {
  return json.length === 2 ? `{${extra.slice(1)}}` : json.slice(0, -1) + extra + '}';
}
