// Strict Ed25519 verification (RFC 8032 §5.1.7) over key slots.
//
// Policy (../../../shared/DESIGN.md "Ed25519 policy"):
// - import: A must decode canonically (y < p; x = 0 with the sign bit set refused,
//   §5.1.3) and must not be of small order ([8]A != identity); else ERR_KEY.
// - verify: S < L, else INVALID. k = SHA-512(R || A || M) mod L. We compute
//   R' = [S]B - [k]A and accept iff encode(R') equals the 32 signature bytes of R.
//   That is the cofactorless equation [S]B = R + [k]A, as in OpenSSL/BoringSSL,
//   with R checked by re-encoding: a non-canonical R can never match, since
//   encode() only produces canonical bytes.
// Everything here is public (key, message, signature), so variable-time code is fine.
//
// Per key, import decompresses A once and builds a fixed-base table of its
// multiples (./table); B's table is built at the first import. A verify is then
// one SHA-512, one scalar reduction, about 2 * POSITIONS mixed additions and one inversion.

import { VALID, INVALID, ERR_SLOT, ERR_KEY, ERR_EMPTY_SLOT, ERR_LENGTH } from '../status';
import { arenaAlloc } from './arena';
import { equalCt } from '../regions';
import { sha512Init, sha512Update, sha512Final, SHA512_CTX } from '../sha512';
import { ptDecode, ptEncode, ptIsSmallOrder } from './point';
import { scIsCanonical, scReduce, scDigits } from './scalar';
import { W, POSITIONS, TABLE_BYTES, buildTable, sumDigits } from './table';
import { FE_BX, FE_BY } from './constants';
import { FE, feMul, feOne } from './field';

export const ED25519_SLOTS: u32 = 64;

// Per slot: the 32 key bytes (hashed into k), a loaded flag, and its table's address.
// A table is allocated the first time its slot is used and reused ever after
// (the stub runtime never frees), so memory is bounded by ED25519_SLOTS tables.
const KEYS: usize = memory.data(<i32>ED25519_SLOTS * 32, 16);
const LOADED: usize = memory.data(<i32>ED25519_SLOTS, 16);
const TABLES: usize = memory.data(<i32>ED25519_SLOTS * 4, 16);

let baseTable: usize = 0; // set once B's table is built
let baseMemory: usize = 0; // allocated once, even if a build ran out of scratch memory

const POINT: usize = memory.data(4 * 40, 8);
const CTX: usize = memory.data(SHA512_CTX, 16);
const HASH: usize = memory.data(64, 16);
const K: usize = memory.data(32, 16);
const S_DIGITS: usize = memory.data(64, 16);
const K_DIGITS: usize = memory.data(64, 16);
const RCHECK: usize = memory.data(32, 16);
const ACC: usize = memory.data(4 * 40, 8);

function ensureBaseTable(): bool {
  if (baseTable != 0) return true;
  const b = ACC; // scratch: not in use outside a verify
  memory.copy(b, FE_BX, FE);
  memory.copy(b + FE, FE_BY, FE);
  feOne(b + 2 * FE);
  feMul(b + 3 * FE, FE_BX, FE_BY);
  if (baseMemory == 0) baseMemory = arenaAlloc(TABLE_BYTES);
  if (baseMemory == 0 || !buildTable(baseMemory, b)) return false;
  baseTable = baseMemory;
  return true;
}

export function ed25519Import(slot: u32, key: usize): i32 {
  if (slot >= ED25519_SLOTS) return ERR_SLOT;
  store<u8>(LOADED + slot, 0);
  if (!ptDecode(POINT, key)) return ERR_KEY;
  if (ptIsSmallOrder(POINT)) return ERR_KEY;
  // Out of memory is reported as ERR_LENGTH (a resource limit, not a bad key).
  if (!ensureBaseTable()) return ERR_LENGTH;
  let tab = <usize>load<u32>(TABLES + (slot << 2));
  if (tab == 0) {
    tab = arenaAlloc(TABLE_BYTES);
    if (tab == 0) return ERR_LENGTH;
    store<u32>(TABLES + (slot << 2), <u32>tab);
  }
  if (!buildTable(tab, POINT)) return ERR_LENGTH;
  memory.copy(KEYS + (slot << 5), key, 32);
  store<u8>(LOADED + slot, 1);
  return VALID;
}

export function ed25519Verify(slot: u32, msg: usize, len: usize, sig: usize): i32 {
  if (slot >= ED25519_SLOTS) return ERR_SLOT;
  if (load<u8>(LOADED + slot) == 0) return ERR_EMPTY_SLOT;
  const s = sig + 32;
  if (!scIsCanonical(s)) return INVALID; // §5.1.7 step 1
  // §5.1.7 step 2: k = SHA-512(R || A || M), reduced mod L.
  sha512Init(CTX, false);
  sha512Update(CTX, sig, 32);
  sha512Update(CTX, KEYS + (slot << 5), 32);
  sha512Update(CTX, msg, len);
  sha512Final(CTX, HASH, 64);
  scReduce(K, HASH);
  scDigits(S_DIGITS, s, W, POSITIONS);
  scDigits(K_DIGITS, K, W, POSITIONS);
  // §5.1.7 step 3, cofactorless: R' = [S]B - [k]A, then compare encodings byte for byte.
  sumDigits(ACC, baseTable, S_DIGITS, <usize>load<u32>(TABLES + (slot << 2)), K_DIGITS, true);
  ptEncode(RCHECK, ACC);
  return equalCt(RCHECK, sig, 32) ? VALID : INVALID;
}

export function ed25519Drop(slot: u32): i32 {
  if (slot >= ED25519_SLOTS) return ERR_SLOT;
  store<u8>(LOADED + slot, 0);
  memory.fill(KEYS + (slot << 5), 0, 32);
  const tab = load<u32>(TABLES + (slot << 2));
  if (tab != 0) memory.fill(tab, 0, TABLE_BYTES);
  return VALID;
}
