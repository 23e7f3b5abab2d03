// The glue between JS and the Wasm core: views into its memory built once,
// key-slot bookkeeping, and status codes turned into booleans or JwtErrors.
// Nothing here allocates inside Wasm; bytes go into fixed regions
// (docs/decisions/0002-wasm-core-boundary.md).

import { readText, writeText } from '#platform';
import type { HashName } from '../algorithms.js';
import { decodeSegment, decodedLength } from '../b64.js';
import { JwtError } from '../errors.js';
import {
  ERR_KEY,
  ERR_PAYLOAD_ENCODING,
  ERR_SIGNATURE_ENCODING,
  HASH_IDS,
  INVALID,
  UTF8_ASCII,
  UTF8_VALID,
  VALID,
} from './abi.js';
import type { CoreExports } from './exports.js';

export type Bytes = string | Uint8Array;

/**
 * A token the core decoded in place (Core.decodeJws): the value a signature check
 * is handed. It names the token and its dot positions, so the core can decode it
 * again when something else wrote over its regions in between (see Core.hold).
 * `payload` is undefined when the payload bytes are not UTF-8.
 */
export class DecodedJws {
  constructor(
    readonly token: string,
    /** Index of the first '.'. */
    readonly headerEnd: number,
    /** Index of the second '.': the signing input is token[0, payloadEnd). */
    readonly payloadEnd: number,
    readonly payload: string | undefined,
    readonly payloadLength: number,
    readonly signatureLength: number,
    /** Set when the token was decoded in JS (src/jws-bytes.ts): its bytes live here, not in the core's regions. */
    readonly held?: HeldJws,
  ) {}
}

/** The decoded segments of a token decoded in JS, outside the core. */
export interface HeldJws {
  readonly payload: Uint8Array;
  readonly signature: Uint8Array;
}

/** A message and its signature as bytes, for a check outside a token (tests, test vectors). */
export interface SignedBytes {
  readonly message: Bytes;
  readonly signature: Uint8Array;
}

/** What a signature check reads: a decoded token, or a message and signature. */
export type Signed = DecodedJws | SignedBytes;

/** The Wasm-verified schemes; each has one verify export. */
export type WasmScheme = 'hmac' | 'ed25519';

export const JWS_PAYLOAD_NOT_BASE64URL = 'payload is not canonical base64url';
export const JWS_SIGNATURE_NOT_BASE64URL = 'signature is not canonical base64url';

/**
 * The core as an HMAC verify uses it: decode, signature checks, HMAC key slots.
 * Everything else is a function over the members left public for it (Ed25519 slots
 * and signingViews below, signing in core-sign.ts, hashing in core-hash.ts): a
 * bundler drops an unused function but never an unused method, so a bundle that
 * only verifies HMAC tokens leaves them out.
 */
export class Core {
  readonly exports: CoreExports;
  readonly inputCap: number;
  readonly inputPtr: number;
  readonly sigPtr: number;
  readonly outPtr: number;
  readonly payloadPtr: number;
  readonly extraPtr: number;
  /** The decoded token whose bytes INPUT, SIG and PAYLOAD hold; cleared by every other write (takeInput). */
  private resident: DecodedJws | undefined;
  /**
   * The header segment at the start of INPUT since the last hmacSignJws (core-sign.ts); cleared by every other write
   * (takeInput).
   */
  signingHeader: string | undefined;
  /** The claims text at EXTRA and its byte length, if any; only hmacSignJws writes there. */
  signingExtra: { readonly text: string; readonly length: number } | undefined;
  private readonly encoder = new TextEncoder();
  buffer: ArrayBuffer;
  memoryView: Uint8Array;
  private inputView: Uint8Array;
  private readonly freeHmac: number[];
  private hmacSlotCount: number;
  /** Free Ed25519 slots (ed25519Import below). */
  readonly freeEd25519: number[];

  constructor(exports: CoreExports) {
    this.exports = exports;
    // Globals, not calls: a fresh isolate compiles every export at its first call.
    this.inputPtr = exports.input_ptr.value;
    this.inputCap = exports.input_cap.value;
    this.sigPtr = exports.sig_ptr.value;
    this.outPtr = exports.out_ptr.value;
    this.payloadPtr = exports.payload_ptr.value;
    this.extraPtr = exports.extra_ptr.value;
    this.buffer = exports.memory.buffer;
    this.memoryView = new Uint8Array(this.buffer);
    this.inputView = this.memoryView.subarray(this.inputPtr, this.inputPtr + this.inputCap);
    // Pop from the end: slot 0 is handed out first.
    this.hmacSlotCount = exports.hmac_slots_initial.value;
    this.freeHmac = descending(this.hmacSlotCount);
    this.freeEd25519 = descending(exports.ed25519_slots.value);
  }

  // ---- compact JWS, decoded in place ----

  /**
   * Copy `token` (dots at headerEnd and payloadEnd) into INPUT and decode it there:
   * the signature to SIG, the payload to PAYLOAD. The signing input stays in INPUT as
   * the token's prefix, so verify() reads it without another copy.
   * Throws ERR_JWT_MALFORMED for anything that is not canonical base64url.
   */
  decodeJws(token: string, headerEnd: number, payloadEnd: number): DecodedJws {
    const status = this.decodeInPlace(token, headerEnd, payloadEnd);
    if (status < 0) {
      throw new JwtError('ERR_JWT_MALFORMED', {
        reason: status === ERR_PAYLOAD_ENCODING ? JWS_PAYLOAD_NOT_BASE64URL : JWS_SIGNATURE_NOT_BASE64URL,
      });
    }
    const n = status >>> 2;
    const utf8 = status & 3;
    const payload =
      utf8 === UTF8_ASCII || utf8 === UTF8_VALID
        ? readText(this.buffer, this.payloadPtr, this.payloadPtr + n, utf8 === UTF8_ASCII)
        : undefined;
    const decoded = new DecodedJws(
      token,
      headerEnd,
      payloadEnd,
      payload,
      n,
      decodedLength(token.length - payloadEnd - 1),
    );
    this.resident = decoded;
    return decoded;
  }

  /** A copy of the payload bytes of `jws` (raw-payload verifiers). */
  payloadBytes(jws: DecodedJws): Uint8Array {
    if (!this.hold(jws)) throw new JwtError('ERR_JWT_MALFORMED', { reason: JWS_PAYLOAD_NOT_BASE64URL });
    return this.memoryView.slice(this.payloadPtr, this.payloadPtr + jws.payloadLength);
  }

  // ---- signatures ----

  /**
   * The one signature check of the core: `scheme`'s verify export with the key in
   * `slot`, on a decoded token (read in place) or on a message and signature (copied
   * in). HMAC accepts a tag of 1..64 bytes (compared in constant time against that
   * prefix of the MAC: callers fix the length), Ed25519 exactly 64. Anything else is `false`.
   */
  verify(scheme: WasmScheme, slot: number, signed: Signed): boolean {
    let len: number;
    let sigLength: number;
    if (signed instanceof DecodedJws) {
      sigLength = signed.signatureLength;
      if (!fits(scheme, sigLength) || !this.hold(signed)) return false;
      len = signed.payloadEnd;
    } else {
      sigLength = signed.signature.length;
      if (!fits(scheme, sigLength)) return false;
      len = this.writeInput(signed.message);
      if (len < 0) return false;
      this.memoryView.set(signed.signature, this.sigPtr);
    }
    return this.verdict(
      scheme === 'hmac' ? this.exports.hmac_verify(slot, len, sigLength) : this.exports.ed25519_verify(slot, len),
    );
  }

  // ---- HMAC ----

  /** Import a raw HMAC key with no length policy (see src/wasm/keys.ts for the JWT rules). */
  hmacImport(name: HashName, key: Uint8Array): number {
    if (key.length > this.inputCap) throw new JwtError('ERR_KEY_INVALID', { reason: 'key too long' });
    const slot = this.freeHmac.pop() ?? this.growHmac();
    if (slot === undefined) throw new JwtError('ERR_WASM_CORE', { reason: 'no free HMAC key slot' });
    this.takeInput();
    this.inputView.set(key, 0);
    const status = this.exports.hmac_import(slot, HASH_IDS[name], key.length);
    if (status !== VALID) {
      this.exports.input_wipe(key.length);
      this.freeHmac.push(slot);
      throw new JwtError('ERR_WASM_CORE', { reason: `hmac_import status ${status}` });
    }
    return slot;
  }

  hmacDrop(slot: number): void {
    if (this.exports.hmac_drop(slot) === VALID) this.freeHmac.push(slot);
  }

  // ---- internals ----

  /**
   * Make sure INPUT, SIG and PAYLOAD hold `jws` (decoding its token again if another
   * call wrote over them); false if it no longer decodes.
   */
  hold(jws: DecodedJws): boolean {
    if (this.resident === jws) return true;
    if (this.decodeInPlace(jws.token, jws.headerEnd, jws.payloadEnd) < 0) return false;
    this.resident = jws;
    return true;
  }

  /**
   * The core's status for decoding `token` in place (see jws_decode); for a token that is not ASCII, nonAsciiStatus's.
   */
  private decodeInPlace(token: string, headerEnd: number, payloadEnd: number): number {
    this.takeInput();
    if (writeText(this.buffer, this.inputPtr, this.inputCap, token) < 0)
      return nonAsciiStatus(token, headerEnd, payloadEnd);
    return this.exports.jws_decode(token.length, headerEnd, payloadEnd);
  }

  /**
   * Every write into the core's regions starts here: the decoded token and the
   * signing header they held (if any) are no longer there, and views are rebuilt if
   * memory grew.
   */
  takeInput(): void {
    this.resident = undefined;
    this.signingHeader = undefined;
    this.refreshViews();
  }

  /** Double the HMAC slots (dropped keys may still await the garbage collector); a new slot or undefined. */
  private growHmac(): number | undefined {
    const before = this.hmacSlotCount;
    const after = this.exports.hmac_grow();
    if (after <= before) return undefined;
    this.hmacSlotCount = after;
    for (let i = after - 1; i > before; i--) this.freeHmac.push(i);
    return before;
  }

  /** Copy `data` into INPUT; returns its byte length, or -1 if it does not fit. */
  writeInput(data: Bytes): number {
    this.takeInput();
    if (typeof data === 'string') {
      const { read, written } = this.encoder.encodeInto(data, this.inputView);
      return read === data.length ? written : -1;
    }
    if (data.length > this.inputCap) return -1;
    this.inputView.set(data, 0);
    return data.length;
  }

  private verdict(status: number): boolean {
    if (status === VALID) return true;
    if (status === INVALID) return false;
    throw new JwtError('ERR_WASM_CORE', { reason: `verify status ${status}` });
  }

  /**
   * Views die when memory grows (slot growth does grow it). A grown memory detaches its
   * old ArrayBuffer, so a zero byteLength says "rebuild" without the costlier
   * memory.buffer getter on every call.
   */
  refreshViews(): void {
    if (this.buffer.byteLength === 0) {
      this.buffer = this.exports.memory.buffer;
      this.memoryView = new Uint8Array(this.buffer);
      this.inputView = this.memoryView.subarray(this.inputPtr, this.inputPtr + this.inputCap);
    }
  }
}

/** The signature lengths a scheme's verify export takes. */
function fits(scheme: WasmScheme, sigLength: number): boolean {
  return scheme === 'hmac' ? sigLength > 0 && sigLength <= 64 : sigLength === 64;
}

/**
 * A token with a character outside ASCII (never base64url): the status names the first segment that does not decode.
 */
function nonAsciiStatus(token: string, headerEnd: number, payloadEnd: number): number {
  // The payload is judged first, as jws_decode does (and the JS decoder, src/jws-bytes.ts):
  // a non-ASCII character there or any other flaw in it makes it the payload's error.
  return decodeSegment(token, headerEnd + 1, payloadEnd) === undefined ? ERR_PAYLOAD_ENCODING : ERR_SIGNATURE_ENCODING;
}

function descending(count: number): number[] {
  const slots: number[] = [];
  for (let i = count - 1; i >= 0; i--) slots.push(i);
  return slots;
}

/**
 * Views of the signing input and signature of `jws` (undefined if it no longer
 * decodes), for a check outside the core. Read them before the next call into the core.
 * @example
 * const views = signingViews(getCore(), jws); // [signing input, signature] or undefined
 */
export function signingViews(core: Core, jws: DecodedJws): [Uint8Array, Uint8Array] | undefined {
  if (!core.hold(jws)) return undefined;
  return [
    core.memoryView.subarray(core.inputPtr, core.inputPtr + jws.payloadEnd),
    core.memoryView.subarray(core.sigPtr, core.sigPtr + jws.signatureLength),
  ];
}

/**
 * The module's whole memory (tests read it to prove secrets were wiped).
 * @example
 * indexOfBytes(coreMemory(getCore()), secret); // -1 once the secret is wiped
 */
export function coreMemory(core: Core): Uint8Array {
  core.refreshViews();
  return core.memoryView;
}

// ---- Ed25519 key slots (functions, so an HMAC-only bundle leaves them out) ----

/**
 * Import a 32-byte public key into a free slot; a malformed or weak key throws ERR_KEY_INVALID.
 * @example
 * const slot = ed25519Import(getCore(), publicKeyBytes);
 */
export function ed25519Import(core: Core, publicKey: Uint8Array): number {
  if (publicKey.length !== 32) throw new JwtError('ERR_KEY_INVALID', { reason: 'Ed25519 public key must be 32 bytes' });
  const free = core.freeEd25519;
  const slot = free.pop();
  if (slot === undefined) throw new JwtError('ERR_WASM_CORE', { reason: 'no free Ed25519 key slot' });
  core.writeInput(publicKey);
  const status = core.exports.ed25519_import(slot);
  if (status !== VALID) {
    free.push(slot);
    if (status === ERR_KEY) throw new JwtError('ERR_KEY_INVALID', { reason: 'not a valid Ed25519 public key' });
    throw new JwtError('ERR_WASM_CORE', { reason: `ed25519_import status ${status}` });
  }
  return slot;
}

/**
 * Whether an Ed25519 slot is free (else the caller evicts one first).
 * @example
 * if (!hasFreeEd25519Slot(core)) evictLeastRecent();
 */
export function hasFreeEd25519Slot(core: Core): boolean {
  return core.freeEd25519.length > 0;
}

/**
 * Give an Ed25519 slot back.
 * @example
 * ed25519Drop(getCore(), slot);
 */
export function ed25519Drop(core: Core, slot: number): void {
  if (core.exports.ed25519_drop(slot) === VALID) core.freeEd25519.push(slot);
}
