// How a verified claim travels to the origin in a request header (forwardClaims).
// One claim value, one header value, and never two identities in one spelling:
// a value the origin could read as another identity is refused, not rewritten.
//
//   string             as is; refused with a leading or trailing space (an origin or
//                      proxy that trims would read "admin " as "admin")
//   number, boolean    String(v); an integer beyond ±2^53 is refused (JSON parsing
//                      already rounded it: 12345678901234567891 and ...890 are one number)
//   list of strings    the strings joined by one space; every string must be non-empty
//                      and hold no space, and the first must not start with "[" (the
//                      JSON form below): then splitting on " " gives the list back
//   any other list     its JSON text (starts with "[")
//   object             its JSON text
//
// Lists are therefore encoded injectively: ["finance admins"] is refused, never sent
// as the "finance admins" that ["finance","admins"] is. A string and a list with the
// same words do arrive the same: which one a claim is is the issuer's choice, not the
// caller's. Any result that is not printable ASCII or is longer than 4096 characters
// is refused too (claim_not_forwardable), and so is a value too deeply nested to
// serialise (thousands of levels: the issuer signed it, but it is no identity).

import { roundedInteger } from '../../exact-number.js';

/** The longest header value a claim is forwarded in. */
export const MAX_FORWARDED_VALUE = 4096;
const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * The header value a claim is forwarded as: undefined when the claim is absent
 * (no header), null when it cannot travel without ambiguity or damage (refuse
 * the request with claim_not_forwardable; never truncate or trim).
 *
 * @example
 * claimHeaderValue(['read', 'write']); // 'read write'
 * claimHeaderValue(['finance admins']); // null
 * claimHeaderValue('admin '); // null
 */
export function claimHeaderValue(v: unknown): string | undefined | null {
  if (v === undefined || v === null) return undefined;
  let s: string | null;
  if (typeof v === 'string') s = v.startsWith(' ') || v.endsWith(' ') ? null : v;
  else if (typeof v === 'number') s = roundedInteger(v) ? null : String(v);
  else if (typeof v === 'boolean') s = String(v);
  else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) s = wordList(v as string[]);
  else s = jsonText(v);
  return s !== null && s.length <= MAX_FORWARDED_VALUE && PRINTABLE.test(s) ? s : null;
}

/**
 * JSON text, or null for a value holding a rounded integer, or nested deeper than
 * the engine's stack (a RangeError: a 500 if thrown).
 */
function jsonText(v: unknown): string | null {
  let rounded = false;
  try {
    const text = JSON.stringify(v, (_, x: unknown) => {
      if (typeof x === 'number' && roundedInteger(x)) rounded = true;
      return x;
    });
    return rounded ? null : text;
  } catch {
    return null;
  }
}

/** A list of strings as space-separated words, or null when splitting could not give it back. */
function wordList(list: readonly string[]): string | null {
  for (const w of list) if (w.length === 0 || w.includes(' ')) return null;
  if (list.length > 0 && list[0]!.startsWith('[')) return null;
  return list.join(' ');
}
