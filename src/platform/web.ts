// Native base64url decoding where the runtime has it (Uint8Array.fromBase64: workerd,
// recent browsers, Bun, Deno), else the strict JS decoder. Same verdicts either way:
// the native decoder is lenient, so the strict rules are checked around it.

import { decodeSegment, decodedLength, trailingBitsZero } from '../b64.js';
import { utf8 } from '../utf8.js';

/** Bytes to text, refusing invalid UTF-8 (a fatal TextDecoder). */
export const utf8Text: (bytes: Uint8Array) => string | undefined = utf8;

type FromBase64 = (text: string, options: { alphabet: 'base64url'; lastChunkHandling: 'loose' }) => Uint8Array;
const fromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
const OPTIONS = { alphabet: 'base64url', lastChunkHandling: 'loose' } as const;

/** Segments at least this long go to decodeBase64Url; shorter ones to the JS decoder. */
export const NATIVE_MIN_LENGTH = fromBase64 === undefined ? Infinity : 0;

/** Decode a whole canonical base64url string, or undefined. (Callers copy before keeping: the node variant may return a pooled view.) */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  if (fromBase64 === undefined) return decodeSegment(text, 0, text.length);
  const expected = decodedLength(text.length);
  if (expected < 0 || !trailingBitsZero(text)) return undefined;
  let bytes: Uint8Array;
  try {
    // Rejects characters outside the base64url alphabet (including + and /).
    bytes = fromBase64(text, OPTIONS);
  } catch {
    return undefined;
  }
  // Skipped whitespace or accepted padding shows up as a shorter result.
  return bytes.length === expected ? bytes : undefined;
}
