/// <reference types="node" />
// Platform helpers under the `node` condition (Node, Bun, Deno), built on Buffer:
// text into and out of the Wasm core's memory (the verify path), and base64url for
// decodeUnverified. Buffer's base64url is lenient (it skips unknown characters,
// accepts + / and padding, and reads only the low byte of non-ASCII code units), so
// the strict rules are checked around it.

import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import { decodedLength, trailingBitsZero } from '../b64.js';

/**
 * Decode a whole canonical base64url string, or undefined. The result may be a view on Buffer's shared pool: copy it
 * before keeping it.
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  const expected = decodedLength(text.length);
  if (expected < 0 || !trailingBitsZero(text)) return undefined;
  if (text.indexOf('+') >= 0 || text.indexOf('/') >= 0) return undefined;
  // Only ASCII can be base64url; a non-ASCII code unit would alias an ASCII one.
  if (Buffer.byteLength(text, 'utf8') !== text.length) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Skipped characters or padding show up as a shorter result.
  if (bytes.length !== expected) return undefined;
  return bytes;
}

/**
 * Bytes to text, refusing invalid UTF-8. Checked with simdutf (isAscii/isUtf8), then
 * sliced: measured 2-3x faster than a fatal TextDecoder for a 450-byte payload.
 */
export function utf8Text(bytes: Uint8Array): string | undefined {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (isAscii(b)) return b.toString('latin1');
  return isUtf8(b) ? b.toString('utf8') : undefined;
}

// One Buffer over the Wasm core's memory, rebuilt only if that memory is replaced.
let memoryBuffer: ArrayBuffer | undefined;
let memoryView: Buffer = Buffer.alloc(0);

function over(memory: ArrayBuffer): Buffer {
  if (memory !== memoryBuffer) {
    memoryBuffer = memory;
    memoryView = Buffer.from(memory);
  }
  return memoryView;
}

// Buffer's own writer skips write()'s argument parsing (about 60 ns a call).
type Writer = (this: Buffer, text: string, offset: number, length: number) => number;
const utf8Write: Writer =
  (Buffer.prototype as unknown as { utf8Write?: Writer }).utf8Write ??
  function (this: Buffer, t, o, l) {
    return this.write(t, o, l, 'utf8');
  };

/**
 * Write `text` as UTF-8 into `memory` at `offset` (at most `cap` bytes); returns the
 * byte count, or -1 unless it is one byte per character. (A non-ASCII character can
 * still hide in a cut-off write of exactly text.length bytes: the core's base64url
 * decoder refuses every byte above 0x7f, which is where such bytes land.)
 */
export function writeText(memory: ArrayBuffer, offset: number, cap: number, text: string): number {
  const written = utf8Write.call(over(memory), text, offset, cap);
  return written === text.length ? written : -1;
}

/**
 * Write `text` as UTF-8 into `memory` at `offset`; returns the byte count, or -1 if
 * it takes more than `cap` bytes (the signer's claims JSON, which need not be ASCII).
 */
export function writeUtf8(memory: ArrayBuffer, offset: number, cap: number, text: string): number {
  // Three bytes per UTF-16 unit is the most UTF-8 takes: only a long text needs counting.
  if (text.length * 3 > cap && Buffer.byteLength(text, 'utf8') > cap) return -1;
  return utf8Write.call(over(memory), text, offset, cap);
}

// Buffer's own slicers skip toString's argument checks (~2% of an HS256
// verify); every runtime under this condition has them, toString is the fallback.
type Slicer = (this: Buffer, start: number, end: number) => string;
const proto = Buffer.prototype as unknown as { latin1Slice?: Slicer; utf8Slice?: Slicer };
const latin1Slice: Slicer =
  proto.latin1Slice ??
  function (this: Buffer, s, e) {
    return this.toString('latin1', s, e);
  };
const utf8Slice: Slicer =
  proto.utf8Slice ??
  function (this: Buffer, s, e) {
    return this.toString('utf8', s, e);
  };

/** The string of bytes [start, end) of `memory`, which the core found to be ASCII (or valid UTF-8). */
export function readText(memory: ArrayBuffer, start: number, end: number, ascii: boolean): string {
  return (ascii ? latin1Slice : utf8Slice).call(over(memory), start, end);
}

/** Standard base64 (the embedded Wasm core) to bytes: native, where a JS loop cost 2-3 ms cold. */
export function base64Bytes(text: string): Uint8Array {
  return Buffer.from(text, 'base64');
}

// ---- base64url encoding (the signing path) ----

const base64urlSlice: Slicer =
  (Buffer.prototype as unknown as { base64urlSlice?: Slicer }).base64urlSlice ??
  function (this: Buffer, s, e) {
    return this.toString('base64url', s, e);
  };
// JSON text is written here before encoding: one buffer for every sign, no allocation.
const textScratch = Buffer.allocUnsafe(65_536);

/** Unpadded base64url of `text` as UTF-8. */
export function base64UrlOfText(text: string): string {
  // Three bytes per UTF-16 unit is the most UTF-8 can take: the write never truncates.
  if (text.length * 3 > textScratch.length) return Buffer.from(text, 'utf8').toString('base64url');
  return base64urlSlice.call(textScratch, 0, textScratch.write(text, 0, 'utf8'));
}

/** Unpadded base64url of `bytes`. */
export function base64UrlOfBytes(bytes: Uint8Array): string {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return base64urlSlice.call(b, 0, b.length);
}
