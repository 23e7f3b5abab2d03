// The Wasm interface, and nothing else: every export takes and returns numbers.
// Bytes travel through the fixed regions in ./regions (INPUT, SIG, OUT), which
// JS reaches through the *_ptr globals. Status codes are in ./status.

import { INPUT, INPUT_CAP, SIG, SIG_CAP, OUT, PAYLOAD, PAYLOAD_CAP, EXTRA, EXTRA_CAP, wipe } from './regions';
import { ERR_ALG, ERR_LENGTH, ERR_PAYLOAD_ENCODING, ERR_SIGNATURE_ENCODING } from './status';
import { decodeBase64Url, encodeBase64Url, encodedLength } from './base64url';
import { utf8Class } from './utf8';
import {
  hmacSlotCount, hmacGrow, digest, digestLength, hmacImport, hmacVerify, hmacCompute, hmacDrop,
  HASH_SHA256, HASH_SHA384, HMAC_SLOTS,
} from './hmac';
import { sha256Init, sha256Update, sha256Final } from './sha256';
import { sha512Init, sha512Update, sha512Final, SHA512_CTX } from './sha512';
import { sha2SetWarmAfter } from './sha2-first-use';
import {
  ED25519_SLOTS, ed25519Import, ed25519Verify, ed25519Drop, ed25519SetHotAfter, ed25519SlotHot,
} from './ed25519/verify';

// The regions' addresses and sizes, and the key slots there are at instantiation, as
// immutable globals: JS reads each with no call (the first call of an export compiles
// it, which a fresh isolate pays for on its first request).
export const input_ptr: usize = INPUT;
export const input_cap: u32 = INPUT_CAP;
export const sig_ptr: usize = SIG;
export const sig_cap: u32 = SIG_CAP;
export const out_ptr: usize = OUT;
export const payload_ptr: usize = PAYLOAD;
export const extra_ptr: usize = EXTRA;
export const hmac_slots_initial: u32 = HMAC_SLOTS;
export const ed25519_slots: u32 = ED25519_SLOTS;

/** Wipe the first `len` bytes of INPUT (JS calls this after writing a secret there). */
export function input_wipe(len: u32): void {
  wipe(INPUT, <usize>min<u32>(len, INPUT_CAP));
}

// ---- plain hashes (1 = SHA-256, 2 = SHA-384, 3 = SHA-512) ----

/** Digest of the first `len` bytes of INPUT into OUT; returns the digest length or a status. */
export function hash(alg: u32, len: u32): i32 {
  const dlen = digestLength(alg);
  if (dlen == 0) return ERR_ALG;
  if (len > INPUT_CAP) return ERR_LENGTH;
  digest(alg, INPUT, len, OUT);
  return <i32>dlen;
}

// One streaming context, so tests can feed a message in arbitrary splits.
const STREAM: usize = memory.data(SHA512_CTX, 16);
let streamAlg: u32 = 0;

export function hash_init(alg: u32): i32 {
  if (digestLength(alg) == 0) return ERR_ALG;
  streamAlg = alg;
  if (alg == HASH_SHA256) sha256Init(STREAM);
  else sha512Init(STREAM, alg == HASH_SHA384);
  return 1;
}

export function hash_update(len: u32): i32 {
  if (streamAlg == 0) return ERR_ALG;
  if (len > INPUT_CAP) return ERR_LENGTH;
  if (streamAlg == HASH_SHA256) sha256Update(STREAM, INPUT, len);
  else sha512Update(STREAM, INPUT, len);
  return 1;
}

export function hash_final(): i32 {
  const alg = streamAlg;
  if (alg == 0) return ERR_ALG;
  streamAlg = 0;
  if (alg == HASH_SHA256) sha256Final(STREAM, OUT);
  else sha512Final(STREAM, OUT, digestLength(alg));
  return <i32>digestLength(alg);
}

// ---- compact JWS ----

/**
 * Decode the compact JWS in the first `len` bytes of INPUT, whose dots are at `h`
 * and `p`: the payload into PAYLOAD, the signature into SIG (where the verify entry
 * points read it; the signing input stays in INPUT as the token's prefix). Returns
 * (payload length << 2 | UTF-8 class of the payload, see ./utf8), or a status.
 */
export function jws_decode(len: u32, h: u32, p: u32): i32 {
  if (len > INPUT_CAP || h >= p || p >= len) return ERR_LENGTH;
  // JS wrote one byte per character; dots elsewhere mean a character took more.
  if (load<u8>(INPUT + h) != 0x2e || load<u8>(INPUT + p) != 0x2e) return ERR_PAYLOAD_ENCODING;
  const n = decodeBase64Url(INPUT + h + 1, p - h - 1, PAYLOAD);
  if (n < 0) return ERR_PAYLOAD_ENCODING;
  if (decodeBase64Url(INPUT + p + 1, len - p - 1, SIG) < 0) return ERR_SIGNATURE_ENCODING;
  return (n << 2) | utf8Class(PAYLOAD, n);
}

// ---- HMAC key slots ----

/** HMAC slots now (they grow: see hmac_grow). */
export function hmac_slots(): u32 { return hmacSlotCount(); }

/** Double the HMAC slots; returns the new count (unchanged if memory cannot grow). */
export function hmac_grow(): u32 { return hmacGrow(); }

/** Import the first `keyLen` bytes of INPUT as an HMAC key; INPUT is wiped either way. */
export function hmac_import(slot: u32, alg: u32, keyLen: u32): i32 {
  if (keyLen > INPUT_CAP) return ERR_LENGTH;
  const status = hmacImport(slot, alg, INPUT, keyLen);
  wipe(INPUT, keyLen);
  return status;
}

/** The longest HMAC tag (SHA-512). */
const MAX_TAG: u32 = 64;

/** Verify the first `tagLen` bytes of SIG against the MAC of the first `len` bytes of INPUT. */
export function hmac_verify(slot: u32, len: u32, tagLen: u32): i32 {
  if (len > INPUT_CAP || tagLen > MAX_TAG) return ERR_LENGTH;
  return hmacVerify(slot, INPUT, len, SIG, tagLen);
}

/** Write the MAC of the first `len` bytes of INPUT to OUT; returns its length or a status. */
export function hmac_compute(slot: u32, len: u32): i32 {
  if (len > INPUT_CAP) return ERR_LENGTH;
  return hmacCompute(slot, INPUT, len, OUT);
}

/**
 * Sign a compact JWS in one call: INPUT starts with the header segment
 * (`headerLen` characters, written by JS), PAYLOAD holds the claims JSON
 * (`payloadLen` bytes), and the first `extraLen` bytes of EXTRA, if any, are
 * members to insert before its closing brace. Appends '.', the payload's
 * base64url, '.', and the base64url of the MAC of everything before that second
 * dot, so the whole token ends up at INPUT; returns its length or a status.
 */
export function hmac_sign_jws(slot: u32, headerLen: u32, payloadLen: u32, extraLen: u32): i32 {
  if (payloadLen > PAYLOAD_CAP || headerLen > INPUT_CAP || extraLen > EXTRA_CAP) return ERR_LENGTH;
  if (extraLen != 0) {
    if (payloadLen < 2 || payloadLen + extraLen > PAYLOAD_CAP) return ERR_LENGTH;
    // Over the closing brace, then the brace again.
    const at = PAYLOAD + payloadLen - 1;
    let i: usize = 0;
    for (; i + 16 <= <usize>extraLen; i += 16) v128.store(at + i, v128.load(EXTRA + i));
    for (; i < <usize>extraLen; i++) store<u8>(at + i, load<u8>(EXTRA + i));
    store<u8>(at + i, 0x7d);
    payloadLen += extraLen;
  }
  const inputLen = headerLen + 1 + encodedLength(payloadLen);
  // Room for the longest tag (64 bytes: 86 characters) after the second dot.
  if (inputLen + 87 > INPUT_CAP) return ERR_LENGTH;
  store<u8>(INPUT + headerLen, 0x2e);
  encodeBase64Url(PAYLOAD, payloadLen, INPUT + headerLen + 1);
  const tagLen = hmacCompute(slot, INPUT, inputLen, OUT);
  if (tagLen <= 0) return tagLen;
  store<u8>(INPUT + inputLen, 0x2e);
  return <i32>(inputLen + 1 + encodeBase64Url(OUT, <u32>tagLen, INPUT + inputLen + 1));
}

export function hmac_drop(slot: u32): i32 { return hmacDrop(slot); }

// ---- Ed25519 key slots ----

/** Import the 32-byte public key at the start of INPUT into `slot`. */
export function ed25519_import(slot: u32): i32 { return ed25519Import(slot, INPUT); }

/** Verify the 64-byte signature in SIG over the first `len` bytes of INPUT. */
export function ed25519_verify(slot: u32, len: u32): i32 {
  if (len > INPUT_CAP) return ERR_LENGTH;
  return ed25519Verify(slot, INPUT, len, SIG);
}

export function ed25519_drop(slot: u32): i32 { return ed25519Drop(slot); }

// Tests and benchmarks only (the JS glue never calls these). A key's fixed-base
// table is built lazily, after `n` verifies on the table-free path (default in
// assembly/ed25519/verify.ts, HOT_AFTER); both paths give the same verdicts.

/** Set the verifies before a key's table is built (0: at its first verify); returns the previous value. */
export function ed25519_test_hot_after(n: u32): u32 { return ed25519SetHotAfter(n); }

/** 1 if `slot`'s table is built for its current key, 0 if not, ERR_SLOT past the slots. */
export function ed25519_test_slot_hot(slot: u32): i32 { return ed25519SlotHot(slot); }

/**
 * Set the SHA-2 blocks compressed by the looped code before the unrolled one (see ./sha2-first-use); returns the
 * previous value.
 */
export function sha2_test_warm_after(n: u32): u32 { return sha2SetWarmAfter(n); }
