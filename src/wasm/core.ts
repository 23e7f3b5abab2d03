// The glue between JS and the Wasm core: views into its memory built once,
// key-slot bookkeeping, and status codes turned into booleans or JwtErrors.
// Nothing here allocates inside Wasm; bytes go into fixed regions.

import { base64UrlOfMemory, readText, writeText } from '#platform';
import { JwtError } from '../errors.js';
import type { CoreExports } from './exports.js';
import { decodedLength } from '../b64.js';
import { VALID, INVALID, ERR_PAYLOAD_ENCODING, ERR_SIGNATURE_ENCODING } from './status.js';

export const HASH_IDS = { 'SHA-256': 1, 'SHA-384': 2, 'SHA-512': 3 } as const;
export type HashName = keyof typeof HASH_IDS;
export const DIGEST_LENGTH: Record<HashName, number> = { 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64 };

export type Bytes = string | Uint8Array;

/** What decodeJws found; `payload` is undefined when the payload bytes are not UTF-8. */
export interface DecodedJws {
  readonly payload: string | undefined;
  readonly payloadLength: number;
  readonly signatureLength: number;
}

export const JWS_PAYLOAD_NOT_BASE64URL = 'payload is not canonical base64url';
export const JWS_SIGNATURE_NOT_BASE64URL = 'signature is not canonical base64url';
const UTF8_ASCII = 0;
const UTF8_VALID = 1;

export class Core {
  readonly exports: CoreExports;
  readonly inputCap: number;
  private readonly inputPtr: number;
  private readonly sigPtr: number;
  private readonly outPtr: number;
  private readonly payloadPtr: number;
  /** The token whose bytes INPUT, SIG and PAYLOAD hold (see decodeJws); cleared by any other write. */
  private decoded: string | undefined;
  private readonly encoder = new TextEncoder();
  private buffer: ArrayBuffer;
  private memoryView: Uint8Array;
  private inputView: Uint8Array;
  private readonly freeHmac: number[];
  private hmacSlotCount: number;
  private readonly freeEd25519: number[];

  constructor(exports: CoreExports) {
    this.exports = exports;
    this.inputPtr = exports.input_ptr();
    this.inputCap = exports.input_cap();
    this.sigPtr = exports.sig_ptr();
    this.outPtr = exports.out_ptr();
    this.payloadPtr = exports.payload_ptr();
    this.buffer = exports.memory.buffer;
    this.memoryView = new Uint8Array(this.buffer);
    this.inputView = this.memoryView.subarray(this.inputPtr, this.inputPtr + this.inputCap);
    // Pop from the end: slot 0 is handed out first.
    this.hmacSlotCount = exports.hmac_slots();
    this.freeHmac = descending(this.hmacSlotCount);
    this.freeEd25519 = descending(exports.ed25519_slots());
  }

  /** The module's whole memory (tests read it to prove secrets were wiped). */
  get memory(): Uint8Array {
    this.refreshViews();
    return this.memoryView;
  }

  // ---- plain hashes ----

  hash(name: HashName, data: Bytes): Uint8Array {
    const len = this.writeInput(data);
    if (len < 0) throw new JwtError('ERR_WASM_CORE', { reason: 'input larger than the core buffer' });
    const dlen = this.exports.hash(HASH_IDS[name], len);
    return this.readOut(dlen);
  }

  /** Digest of `parts` fed one after another through the streaming context (tests split inputs with it). */
  hashParts(name: HashName, parts: Uint8Array[]): Uint8Array {
    this.exports.hash_init(HASH_IDS[name]);
    for (const part of parts) {
      const len = this.writeInput(part);
      if (len < 0 || this.exports.hash_update(len) !== VALID) {
        this.exports.hash_final();
        throw new JwtError('ERR_WASM_CORE', { reason: 'input larger than the core buffer' });
      }
    }
    return this.readOut(this.exports.hash_final());
  }

  // ---- compact JWS, decoded in place ----

  /**
   * Copy `token` (dots at h and p) into INPUT and decode it there: the signature to
   * SIG, the payload to PAYLOAD. The signing input stays in INPUT as the token's
   * prefix, so the *Decoded verifies below read it without another copy.
   * Throws ERR_JWT_MALFORMED for anything that is not canonical base64url.
   */
  decodeJws(token: string, h: number, p: number): DecodedJws {
    const status = this.decodeInPlace(token, h, p);
    if (status < 0) {
      throw new JwtError('ERR_JWT_MALFORMED', { reason: status === ERR_PAYLOAD_ENCODING ? JWS_PAYLOAD_NOT_BASE64URL : JWS_SIGNATURE_NOT_BASE64URL });
    }
    const n = status >>> 2;
    const utf8 = status & 3;
    const payload = utf8 === UTF8_ASCII || utf8 === UTF8_VALID ? readText(this.buffer, this.payloadPtr, this.payloadPtr + n, utf8 === UTF8_ASCII) : undefined;
    return { payload, payloadLength: n, signatureLength: decodedLength(token.length - p - 1) };
  }

  /** A copy of the payload bytes decodeJws left in PAYLOAD (raw-payload verifiers). */
  payloadBytes(length: number): Uint8Array {
    return this.memoryView.slice(this.payloadPtr, this.payloadPtr + length);
  }

  /** A copy of the signature decodeJws left in SIG (for checks that finish later). */
  signatureBytes(length: number): Uint8Array {
    return this.memoryView.slice(this.sigPtr, this.sigPtr + length);
  }

  /**
   * Views of the signing input and signature of `token`, decoded again if anything wrote
   * over them (undefined if it no longer decodes). Read them before the next call into the core.
   */
  jwsViews(token: string, h: number, p: number, sigLength: number): [Uint8Array, Uint8Array] | undefined {
    if (!this.ensureDecoded(token, h, p)) return undefined;
    return [this.memoryView.subarray(this.inputPtr, this.inputPtr + p), this.memoryView.subarray(this.sigPtr, this.sigPtr + sigLength)];
  }

  hmacVerifyDecoded(slot: number, token: string, h: number, p: number, sigLength: number): boolean {
    if (sigLength === 0 || sigLength > 64 || !this.ensureDecoded(token, h, p)) return false;
    return this.verdict(this.exports.hmac_verify(slot, p, sigLength));
  }

  ed25519VerifyDecoded(slot: number, token: string, h: number, p: number, sigLength: number): boolean {
    if (sigLength !== 64 || !this.ensureDecoded(token, h, p)) return false;
    return this.verdict(this.exports.ed25519_verify(slot, p));
  }

  // ---- HMAC ----

  /** Import a raw HMAC key with no length policy (see src/wasm/keys.ts for the JWT rules). */
  hmacImport(name: HashName, key: Uint8Array): number {
    if (key.length > this.inputCap) throw new JwtError('ERR_KEY_INVALID', { reason: 'key too long' });
    const slot = this.freeHmac.pop() ?? this.growHmac();
    if (slot === undefined) throw new JwtError('ERR_WASM_CORE', { reason: 'no free HMAC key slot' });
    this.refreshViews();
    this.decoded = undefined;
    this.inputView.set(key, 0);
    const status = this.exports.hmac_import(slot, HASH_IDS[name], key.length);
    if (status !== VALID) {
      this.exports.input_wipe(key.length);
      this.freeHmac.push(slot);
      throw new JwtError('ERR_WASM_CORE', { reason: `hmac_import status ${status}` });
    }
    return slot;
  }

  /** Constant-time check of `tag` (1..digest bytes) against the MAC of `data`. */
  hmacVerify(slot: number, data: Bytes, tag: Uint8Array): boolean {
    if (tag.length === 0 || tag.length > 64) return false;
    const len = this.writeInput(data);
    if (len < 0) return false;
    this.memoryView.set(tag, this.sigPtr);
    return this.verdict(this.exports.hmac_verify(slot, len, tag.length));
  }

  hmacCompute(slot: number, data: Bytes): Uint8Array {
    const len = this.writeInput(data);
    if (len < 0) throw new JwtError('ERR_WASM_CORE', { reason: 'input larger than the core buffer' });
    return this.readOut(this.exports.hmac_compute(slot, len));
  }

  /**
   * Signing: the MAC of the ASCII `signingInput` under `slot`, left in OUT; returns the
   * tag length. Read it with outBase64Url before the next call into the core.
   */
  hmacSignInput(slot: number, signingInput: string): number {
    this.refreshViews();
    this.decoded = undefined;
    const len = writeText(this.buffer, this.inputPtr, this.inputCap, signingInput);
    if (len < 0) throw new JwtError('ERR_JWT_TOO_LARGE', { reason: 'signing input larger than the core buffer' });
    const n = this.exports.hmac_compute(slot, len);
    if (n <= 0) throw new JwtError('ERR_WASM_CORE', { reason: `hmac_compute status ${n}` });
    return n;
  }

  /** Unpadded base64url of the first `len` bytes of OUT (a tag hmacSignInput left there). */
  outBase64Url(len: number): string {
    return base64UrlOfMemory(this.buffer, this.outPtr, this.outPtr + len);
  }

  hmacDrop(slot: number): void {
    if (this.exports.hmac_drop(slot) === VALID) this.freeHmac.push(slot);
  }

  // ---- Ed25519 ----

  /** Import a 32-byte public key; a malformed or weak key throws ERR_KEY_INVALID. */
  ed25519Import(publicKey: Uint8Array): number {
    if (publicKey.length !== 32) throw new JwtError('ERR_KEY_INVALID', { reason: 'Ed25519 public key must be 32 bytes' });
    const slot = this.freeEd25519.pop();
    if (slot === undefined) throw new JwtError('ERR_WASM_CORE', { reason: 'no free Ed25519 key slot' });
    this.refreshViews();
    this.decoded = undefined;
    this.inputView.set(publicKey, 0);
    const status = this.exports.ed25519_import(slot);
    if (status !== VALID) {
      this.freeEd25519.push(slot);
      if (status === -4) throw new JwtError('ERR_KEY_INVALID', { reason: 'not a valid Ed25519 public key' });
      throw new JwtError('ERR_WASM_CORE', { reason: `ed25519_import status ${status}` });
    }
    return slot;
  }

  hasFreeEd25519Slot(): boolean {
    return this.freeEd25519.length > 0;
  }

  /** Strict RFC 8032 verify; any malformed signature is simply `false`. */
  ed25519Verify(slot: number, message: Bytes, signature: Uint8Array): boolean {
    if (signature.length !== 64) return false;
    const len = this.writeInput(message);
    if (len < 0) return false;
    this.memoryView.set(signature, this.sigPtr);
    return this.verdict(this.exports.ed25519_verify(slot, len));
  }

  ed25519Drop(slot: number): void {
    if (this.exports.ed25519_drop(slot) === VALID) this.freeEd25519.push(slot);
  }

  // ---- internals ----

  /** The core's status for decoding `token` in place (see jws_decode), or ERR_PAYLOAD_ENCODING for a token that is not ASCII. */
  private decodeInPlace(token: string, h: number, p: number): number {
    this.refreshViews();
    this.decoded = undefined;
    if (writeText(this.buffer, this.inputPtr, this.inputCap, token) < 0) return nonAsciiStatus(token, h, p);
    const status = this.exports.jws_decode(token.length, h, p);
    if (status >= 0) this.decoded = token;
    return status;
  }

  private ensureDecoded(token: string, h: number, p: number): boolean {
    return this.decoded === token || this.decodeInPlace(token, h, p) >= 0;
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
  private writeInput(data: Bytes): number {
    this.refreshViews();
    this.decoded = undefined;
    if (typeof data === 'string') {
      const { read, written } = this.encoder.encodeInto(data, this.inputView);
      return read === data.length ? written : -1;
    }
    if (data.length > this.inputCap) return -1;
    this.inputView.set(data, 0);
    return data.length;
  }

  private readOut(len: number): Uint8Array {
    if (len <= 0) throw new JwtError('ERR_WASM_CORE', { reason: `status ${len}` });
    return this.memoryView.slice(this.outPtr, this.outPtr + len);
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
  private refreshViews(): void {
    if (this.buffer.byteLength === 0) {
      this.buffer = this.exports.memory.buffer;
      this.memoryView = new Uint8Array(this.buffer);
      this.inputView = this.memoryView.subarray(this.inputPtr, this.inputPtr + this.inputCap);
    }
  }

}

/** A character outside ASCII is never base64url: the status names the segment it is in. */
function nonAsciiStatus(token: string, h: number, p: number): number {
  for (let i = h + 1; i < p; i++) if (token.charCodeAt(i) > 0x7f) return ERR_PAYLOAD_ENCODING;
  return ERR_SIGNATURE_ENCODING;
}

function descending(count: number): number[] {
  const slots: number[] = [];
  for (let i = count - 1; i >= 0; i--) slots.push(i);
  return slots;
}
