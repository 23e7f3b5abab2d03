// The protected header a signer emits: `alg` first and fixed by the signer, then
// `typ: "JWT"` unless overridden (or set to undefined), then the caller's members.
// Held to the verifier's header rules so the output is always accepted by it.

import { base64UrlOfText } from '#platform';
import { MAX_KID_LENGTH } from '../header.js';
import { hasDuplicateOrDeep } from '../json-names.js';
import { optionsError } from '../options-error.js';
import { isPlainObject } from './claims.js';

const MAX_HEADER_SEGMENT = 8192;
const MAX_HEADER_DEPTH = 8;

function invalid(reason: string) {
  return optionsError('header', reason);
}

/** The encoded header segment for `alg` with `members` (already merged signer + call members). */
export function headerSegment(alg: string, members: Record<string, unknown> | undefined): string {
  if (members !== undefined && !isPlainObject(members)) throw invalid('expected a plain object');
  const m = members ?? {};
  if (m.alg !== undefined && m.alg !== alg) throw invalid('alg is fixed by the signer');
  // The verifier understands no critical extension and refuses unencoded payloads.
  if (m.crit !== undefined) throw invalid('crit is not supported');
  if (m.b64 !== undefined && m.b64 !== true) throw invalid('b64 other than true is not supported');
  if (m.kid !== undefined && (typeof m.kid !== 'string' || m.kid.length > MAX_KID_LENGTH))
    throw invalid(`kid must be a string of at most ${MAX_KID_LENGTH} characters`);
  if (m.typ !== undefined && (typeof m.typ !== 'string' || m.typ === ''))
    throw invalid('typ must be a non-empty string');
  let json: string;
  try {
    json = JSON.stringify({ alg, typ: 'JWT', ...m });
  } catch {
    throw invalid('not serialisable as JSON');
  }
  if (hasDuplicateOrDeep(json, MAX_HEADER_DEPTH)) throw invalid('nested too deeply');
  const segment = base64UrlOfText(json);
  if (segment.length > MAX_HEADER_SEGMENT) throw invalid('too large');
  return segment;
}
