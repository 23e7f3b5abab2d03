// Platform helpers everywhere else (workerd, browsers): text into and out of the Wasm
// core's memory with TextEncoder/TextDecoder, and for decodeUnverified native
// base64url where the runtime has it (Uint8Array.fromBase64), else the strict JS
// decoder. Same verdicts either way: the native decoder is lenient, so the strict
// rules are checked around it.

import { decodeSegment, decodedLength, encode, trailingBitsZero } from '../b64.js';
import { utf8 } from '../utf8.js';

/** Bytes to text, refusing invalid UTF-8 (a fatal TextDecoder). */
export const utf8Text: (bytes: Uint8Array) => string | undefined = utf8;

type FromBase64 = (text: string, options: { alphabet: 'base64url'; lastChunkHandling: 'loose' }) => Uint8Array;
const fromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
const OPTIONS = { alphabet: 'base64url', lastChunkHandling: 'loose' } as const;
/** Text shorter than this is decoded in JS (bench/sign/sign-jwe-workerd.ts: a JWE's iv and tag). */
const NATIVE_FROM = 128;

/**
 * Decode a whole canonical base64url string, or undefined. (Callers copy before keeping: the node variant may return a
 * pooled view.)
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  // A native call costs ~0.6 µs before its first byte in workerd; the JS decoder wins below ~100 characters.
  if (fromBase64 === undefined || text.length < NATIVE_FROM) return decodeSegment(text, 0, text.length);
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

const encoder = new TextEncoder();
// Lenient is enough: the core validated the UTF-8 first (and it is 2x cheaper than fatal).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

// The views written into are the same on every call (the core's INPUT region for
// writeText, its PAYLOAD region for writeUtf8): each is built once, and again only
// if memory is replaced.
let textTarget = new Uint8Array(0);
let utf8Target = /* @__PURE__ */ new Uint8Array(0);

function fits(view: Uint8Array, memory: ArrayBuffer, offset: number, cap: number): boolean {
  return view.buffer === memory && view.byteOffset === offset && view.length === cap;
}

/**
 * Write `text` as UTF-8 into `memory` at `offset` (at most `cap` bytes); the byte count, or -1 unless every character
 * took one byte.
 */
export function writeText(memory: ArrayBuffer, offset: number, cap: number, text: string): number {
  if (!fits(textTarget, memory, offset, cap)) textTarget = new Uint8Array(memory, offset, cap);
  const { read, written } = encoder.encodeInto(text, textTarget);
  return read === text.length && written === text.length ? written : -1;
}

/** Write `text` as UTF-8 into `memory` at `offset`; the byte count, or -1 if it takes more than `cap` bytes. */
export function writeUtf8(memory: ArrayBuffer, offset: number, cap: number, text: string): number {
  if (!fits(utf8Target, memory, offset, cap)) utf8Target = new Uint8Array(memory, offset, cap);
  const { read, written } = encoder.encodeInto(text, utf8Target);
  return read === text.length ? written : -1;
}

/** The string of bytes [start, end) of `memory`, which the core found to be valid UTF-8. */
export function readText(memory: ArrayBuffer, start: number, end: number, _ascii: boolean): string {
  return decoder.decode(new Uint8Array(memory, start, end - start));
}

type FromStandardBase64 = (text: string) => Uint8Array;

/**
 * Standard base64 (the embedded Wasm core) to bytes: native where the runtime has it, since a JS loop costs 2-3 ms
 * cold.
 */
export function base64Bytes(text: string): Uint8Array {
  if (fromBase64 !== undefined) return (fromBase64 as unknown as FromStandardBase64)(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// ---- base64url encoding (the signing path) ----

type ToBase64 = (this: Uint8Array, options: { alphabet: 'base64url'; omitPadding: true }) => string;
// Read through a pure call, so a bundle that never encodes drops the lookup.
const toBase64 = /* @__PURE__ */ (() => (Uint8Array.prototype as unknown as { toBase64?: ToBase64 }).toBase64)();
const TO_OPTIONS = { alphabet: 'base64url', omitPadding: true } as const;

/** Unpadded base64url of `bytes`: native where the runtime has it. */
export function base64UrlOfBytes(bytes: Uint8Array): string {
  return toBase64 !== undefined ? toBase64.call(bytes, TO_OPTIONS) : encode(bytes);
}

/** Unpadded base64url of `text` as UTF-8. */
export function base64UrlOfText(text: string): string {
  return base64UrlOfBytes(encoder.encode(text));
}
