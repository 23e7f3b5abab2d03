// HMAC (RFC 2104) over SHA-256/384/512 with the inner and outer midstates
// computed once per key and kept in a key slot. A verify then costs only the
// message blocks plus one outer compression.

import { sha256Compress, sha256Init, sha256Update, sha256Final, storeBe32 } from './sha256';
import { sha512Compress, sha512Init, sha512Resume, sha512Update, sha512Final, SHA512_CTX } from './sha512';
import { wipe, equalCt } from './regions';
import { arenaAlloc } from './arena';
import { VALID, INVALID, ERR_SLOT, ERR_LENGTH, ERR_ALG, ERR_EMPTY_SLOT } from './status';

export const HASH_SHA256: u32 = 1;
export const HASH_SHA384: u32 = 2;
export const HASH_SHA512: u32 = 3;

/** Slots available at instantiation; `hmacGrow` doubles them up to HMAC_MAX_SLOTS. */
// @inline: a literal where it is used, so `slotCount` starts as a constant (no start function).
// @ts-ignore: decorator
@inline export const HMAC_SLOTS: u32 = 256;
export const HMAC_MAX_SLOTS: u32 = 65536;

// Slot layout: [0,4) hash id (0 = empty), [8,72) inner state, [72,136) outer state.
const SLOT_SIZE: usize = 136;
const SLOT_INNER: usize = 8;
const SLOT_OUTER: usize = 72;
let slots: usize = memory.data(<i32>(HMAC_SLOTS * <u32>SLOT_SIZE), 16);
let slotCount: u32 = HMAC_SLOTS;

// Scratch: the padded key block, a hash context, and the inner digest. All are
// wiped before any entry point returns.
const PAD: usize = memory.data(128, 16);
const CTX: usize = memory.data(SHA512_CTX, 16);
const INNER: usize = memory.data(64, 16);
const TAG: usize = memory.data(64, 16);
// SHA-256 HMAC: the padded last block(s) of the inner hash, then the outer block.
const BLOCK: usize = memory.data(128, 16);

export function digestLength(hash: u32): u32 {
  return hash == HASH_SHA256 ? 32 : hash == HASH_SHA384 ? 48 : hash == HASH_SHA512 ? 64 : 0;
}

export function blockLength(hash: u32): u32 {
  return hash == HASH_SHA256 ? 64 : 128;
}

/** Whole-message digest of `len` bytes at `data` into `out`; `hash` must be valid. */
export function digest(hash: u32, data: usize, len: usize, out: usize): void {
  if (hash == HASH_SHA256) {
    sha256Init(CTX);
    sha256Update(CTX, data, len);
    sha256Final(CTX, out);
  } else {
    sha512Init(CTX, hash == HASH_SHA384);
    sha512Update(CTX, data, len);
    sha512Final(CTX, out, digestLength(hash));
  }
}

function slotAt(slot: u32): usize {
  return slots + <usize>slot * SLOT_SIZE;
}

export function hmacSlotCount(): u32 {
  return slotCount;
}

/**
 * Double the number of slots (keys that die only when the garbage collector gets
 * to them can briefly outnumber the initial slots). The old region is wiped and
 * abandoned: the stub runtime never frees, and doubling bounds the waste by the
 * live size. Returns the new count, or the old one if memory cannot grow.
 */
export function hmacGrow(): u32 {
  if (slotCount >= HMAC_MAX_SLOTS) return slotCount;
  const bytes = <usize>slotCount * SLOT_SIZE;
  const fresh = arenaAlloc(bytes * 2);
  if (fresh == 0) return slotCount;
  memory.copy(fresh, slots, bytes);
  wipe(slots, bytes);
  slots = fresh;
  slotCount *= 2;
  return slotCount;
}

/**
 * Import `keyLen` bytes at `key` into `slot` for `hash`. Keys longer than the
 * block are hashed first (RFC 2104 §2). The caller enforces minimum lengths.
 */
export function hmacImport(slot: u32, hash: u32, key: usize, keyLen: usize): i32 {
  if (slot >= slotCount) return ERR_SLOT;
  const dlen = digestLength(hash);
  if (dlen == 0) return ERR_ALG;
  const block = <usize>blockLength(hash);
  memory.fill(PAD, 0, 128);
  if (keyLen > block) digest(hash, key, keyLen, PAD);
  else memory.copy(PAD, key, keyLen);
  const s = slotAt(slot);
  store<u32>(s, hash);
  for (let i: usize = 0; i < block; i++) store<u8>(PAD + i, load<u8>(PAD + i) ^ 0x36);
  initState(hash, s + SLOT_INNER);
  compressOne(hash, s + SLOT_INNER, PAD);
  // 0x36 ^ 0x5c turns the inner pad into the outer pad in place.
  for (let i: usize = 0; i < block; i++) store<u8>(PAD + i, load<u8>(PAD + i) ^ (0x36 ^ 0x5c));
  initState(hash, s + SLOT_OUTER);
  compressOne(hash, s + SLOT_OUTER, PAD);
  wipeScratch();
  return VALID;
}

export function hmacDrop(slot: u32): i32 {
  if (slot >= slotCount) return ERR_SLOT;
  wipe(slotAt(slot), SLOT_SIZE);
  return VALID;
}

/** The full tag of `len` bytes at `data` under `slot`, written to `out`. Returns its length or a status. */
export function hmacCompute(slot: u32, data: usize, len: usize, out: usize): i32 {
  if (slot >= slotCount) return ERR_SLOT;
  const s = slotAt(slot);
  const hash = load<u32>(s);
  const dlen = digestLength(hash);
  if (dlen == 0) return ERR_EMPTY_SLOT;
  if (hash == HASH_SHA256) {
    hmacSha256(s, data, len, out);
  } else {
    sha512Resume(CTX, s + SLOT_INNER, 128);
    sha512Update(CTX, data, len);
    sha512Final(CTX, INNER, dlen);
    sha512Resume(CTX, s + SLOT_OUTER, 128);
    sha512Update(CTX, INNER, dlen);
    sha512Final(CTX, out, dlen);
    wipe(INNER, 64);
  }
  return <i32>dlen;
}

/**
 * HMAC-SHA-256 of `len` bytes at `data` with the midstates of slot `s`, without the
 * streaming context: full blocks are compressed where they lie, the padded tail and
 * the outer block are built in BLOCK with vector stores. (V8 turns memory.copy and
 * memory.fill into calls out of the module; the streaming path made about ten per MAC.)
 * Only lengths choose the path. The state and BLOCK are wiped before returning.
 */
function hmacSha256(s: usize, data: usize, len: usize, out: usize): void {
  const st = CTX;
  const z = i32x4.splat(0);
  v128.store(st, v128.load(s + SLOT_INNER));
  v128.store(st, v128.load(s + SLOT_INNER, 16), 16);
  const blocks = len >> 6;
  if (blocks != 0) sha256Compress(st, data, blocks);
  const tail = data + (blocks << 6);
  const rest = len & 63;
  const end: usize = rest < 56 ? 64 : 128;
  for (let j: usize = 0; j < end; j += 16) v128.store(BLOCK + j, z);
  let i: usize = 0;
  for (; i + 16 <= rest; i += 16) v128.store(BLOCK + i, v128.load(tail + i));
  if (i + 8 <= rest) {
    store<u64>(BLOCK + i, load<u64>(tail + i));
    i += 8;
  }
  for (; i < rest; i++) store<u8>(BLOCK + i, load<u8>(tail + i));
  store<u8>(BLOCK + rest, 0x80);
  // The bit length counts the key block the inner midstate absorbed.
  store<u64>(BLOCK + end - 8, bswap<u64>((<u64>len + 64) << 3));
  sha256Compress(st, BLOCK, end >> 6);
  // Outer block: the inner digest (big-endian), 0x80, zeros, the bit length of 64 + 32 bytes.
  for (let j: usize = 0; j < 32; j += 4) storeBe32(BLOCK + j, load<u32>(st + j));
  v128.store(BLOCK, z, 32);
  v128.store(BLOCK, z, 48);
  store<u8>(BLOCK + 32, 0x80);
  store<u64>(BLOCK + 56, bswap<u64>(<u64>(64 + 32) << 3));
  v128.store(st, v128.load(s + SLOT_OUTER));
  v128.store(st, v128.load(s + SLOT_OUTER, 16), 16);
  sha256Compress(st, BLOCK, 1);
  for (let j: usize = 0; j < 32; j += 4) storeBe32(out + j, load<u32>(st + j));
  v128.store(st, z);
  v128.store(st, z, 16);
  for (let j: usize = 0; j < end; j += 16) v128.store(BLOCK + j, z);
}

/**
 * Verify `tagLen` bytes at `tag` against the MAC of the message. The comparison
 * covers all `tagLen` bytes whatever they hold. `tagLen` may be shorter than the
 * digest only for truncated-tag vectors; the JWT layer always passes the full length.
 */
export function hmacVerify(slot: u32, data: usize, len: usize, tag: usize, tagLen: usize): i32 {
  if (slot >= slotCount) return ERR_SLOT;
  const dlen = digestLength(load<u32>(slotAt(slot)));
  if (dlen == 0) return ERR_EMPTY_SLOT;
  if (tagLen == 0 || tagLen > <usize>dlen) return ERR_LENGTH;
  hmacCompute(slot, data, len, TAG);
  const ok = equalCt(TAG, tag, tagLen);
  wipe(TAG, 64);
  return ok ? VALID : INVALID;
}

function initState(hash: u32, state: usize): void {
  // Both context layouts start with the state words, so init into CTX and copy them out.
  if (hash == HASH_SHA256) {
    sha256Init(CTX);
    memory.copy(state, CTX, 32);
  } else {
    sha512Init(CTX, hash == HASH_SHA384);
    memory.copy(state, CTX, 64);
  }
}

function compressOne(hash: u32, state: usize, block: usize): void {
  if (hash == HASH_SHA256) sha256Compress(state, block, 1);
  else sha512Compress(state, block, 1);
}

function wipeScratch(): void {
  wipe(PAD, 128);
  wipe(CTX, SHA512_CTX);
}
