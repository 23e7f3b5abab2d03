// The JWT payload: UTF-8 JSON object text (RFC 7519 §7.2 steps 9-10).
// Parsed once; a duplicate claim name keeps the last value, as RFC 7519 §4 allows.

import { JwtError } from './errors.js';
import { utf8Text } from '#platform';

export function parsePayload(bytes: Uint8Array): Record<string, unknown> {
  return parsePayloadText(utf8Text(bytes));
}

/** The claims set from the payload's text; undefined text means the bytes were not UTF-8. */
export function parsePayloadText(text: string | undefined): Record<string, unknown> {
  if (text === undefined) throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'not UTF-8' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Includes engines that run out of stack on absurdly nested input.
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'not JSON' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID');
  return value as Record<string, unknown>;
}
