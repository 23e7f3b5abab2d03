// The JWE protected header (RFC 7516 §4): decoded as strictly as a JWS header
// (canonical base64url, UTF-8, one JSON object, no duplicate names), then the
// JWE rules: alg and enc in the allow-lists, no `zip`, no `crit`, and nothing that
// names a key location (jku, x5u, jwk) is ever consulted.

import { decodeSegment } from '../b64.js';
import { normaliseTyp } from '../claims.js';
import { JwtError } from '../errors.js';
import { jweError } from './error.js';
import { MAX_KID_LENGTH } from '../header.js';
import { hasDuplicateOrDeep } from '../json-names.js';
import { utf8 } from '../utf8.js';
import { checkContentEncryption, checkKeyManagement, type EncSpec, type KeyManagement } from './algorithms.js';

export interface JweHeader {
  readonly header: Readonly<Record<string, unknown>>;
  readonly alg: KeyManagement;
  readonly enc: EncSpec;
  readonly kid: string | undefined;
  /** True when `cty` names a nested JWT (RFC 7519 §5.2). */
  readonly nested: boolean;
}

const MAX_HEADER_SEGMENT = 8192;

function invalid(reason: string): JwtError {
  return jweError('ERR_JWE_HEADER_INVALID', { reason });
}

export function parseJweHeader(segment: string, algs: ReadonlySet<string>, encs: ReadonlySet<string>): JweHeader {
  if (segment.length > MAX_HEADER_SEGMENT) throw invalid('header too large');
  const bytes = decodeSegment(segment, 0, segment.length);
  if (bytes === undefined) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'JWE header is not canonical base64url' });
  const text = utf8(bytes);
  if (text === undefined) throw invalid('not UTF-8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('not a JSON object');
  if (hasDuplicateOrDeep(text, 8)) throw invalid('duplicate or deeply nested member');
  const h = value as Record<string, unknown>;
  if (typeof h.alg !== 'string' || typeof h.enc !== 'string') throw invalid('alg and enc are required strings');
  const alg = checkKeyManagement(h.alg, algs);
  const enc = checkContentEncryption(h.enc, encs);
  // Decompression bombs, and a compression oracle across the plaintext: never inflate.
  if (h.zip !== undefined) throw jweError('ERR_JWE_ZIP_UNSUPPORTED');
  if (h.crit !== undefined) throw jweError('ERR_JWE_CRIT_UNSUPPORTED');
  const kid = h.kid;
  if (kid !== undefined && (typeof kid !== 'string' || kid.length > MAX_KID_LENGTH)) throw invalid('kid');
  const cty = h.cty;
  if (cty !== undefined && typeof cty !== 'string') throw invalid('cty is not a string');
  const nested = typeof cty === 'string' && normaliseTyp(cty) === 'jwt';
  return { header: Object.freeze(h), alg, enc, kid: kid as string | undefined, nested };
}
