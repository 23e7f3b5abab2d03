// Strict Ed25519 verification (RFC 8032 §5.1.7) over key slots.
//
// Policy (docs/decisions/0004-ed25519-strict-cofactorless.md):
// - import: A must decode canonically (y < p; x = 0 with the sign bit set refused,
//   §5.1.3) and must not be of small order ([8]A != identity); else ERR_KEY.
// - verify: S < L, else INVALID. k = SHA-512(R || A || M) mod L. We compute
//   R' = [S]B - [k]A and accept iff encode(R') equals the 32 signature bytes of R.
//   That is the cofactorless equation [S]B = R + [k]A, as in OpenSSL/BoringSSL,
//   with R checked by re-encoding: a non-canonical R can never match, since
//   encode() only produces canonical bytes.
// Everything here is public (key, message, signature), so variable-time code is fine.
//
// Lazy tables. Import only checks and decompresses A. The first HOT_AFTER verifies
// of a key use the table-free double-scalar multiplication (./double-scalar); the
// next one builds the key's fixed-base table (./table, 161 KiB) and, for the first
// key that gets there, B's. From then on a verify is one SHA-512, one scalar
// reduction, about 2 * POSITIONS mixed additions and one inversion. Both paths
// compute the same point R', so the verdict never depends on which one ran.

import { VALID, INVALID, ERR_SLOT, ERR_KEY, ERR_EMPTY_SLOT } from '../status';
import { arenaAlloc } from '../arena';
import { equalCt } from '../regions';
import { sha512Init, sha512Update, sha512Final, SHA512_CTX } from '../sha512';
import { PT, ptDecode, ptEncode, ptIsSmallOrder } from './point';
import { scIsCanonical, scReduce, scDigits } from './scalar';
import { W, POSITIONS, TABLE_BYTES, buildTable, sumDigits } from './table';
import { doubleScalarMul } from './double-scalar';
import { FE_BX, FE_BY } from './constants';
import { FE, feMul, feOne } from './field';

export const ED25519_SLOTS: u32 = 64;

/**
 * Verifies of one key on the table-free path before its table is built (RFC 8032
 * §5.1.7 step 3 either way), from the measured break-even (bench/core/ed25519-cold.ts,
 * Node 22, three warm runs): a key's table costs 1.2-1.6 ms to build and saves
 * 80-120 µs per verify (130-165 µs table-free, 46-60 µs with tables), so 10-20
 * verifies; the first key to get hot also builds B's table (same size, same cost),
 * which doubles that for it. In a fresh process (cold engine) both tables together
 * took 3.9-4.9 ms and a verify 0.2-0.3 ms table-free against 0.1 ms with tables.
 */
// @ts-ignore: decorator
@inline export const HOT_AFTER: u32 = 20;
let hotAfter: u32 = HOT_AFTER;

/** Set the threshold (tests and benchmarks; never changes a verdict). Returns the previous one. */
export function ed25519SetHotAfter(n: u32): u32 {
  const before = hotAfter;
  hotAfter = n;
  return before;
}

// Per slot: the 32 key bytes (hashed into k), a loaded flag, the decompressed A,
// a count of its verifies, whether its table holds this key's multiples, and the
// table's address. A table is allocated the first time its slot gets hot and is
// reused ever after (the stub runtime never frees), so memory stays bounded by
// ED25519_SLOTS tables.
const KEYS: usize = memory.data(<i32>ED25519_SLOTS * 32, 16);
const LOADED: usize = memory.data(<i32>ED25519_SLOTS, 16);
const POINTS: usize = memory.data(<i32>(ED25519_SLOTS * <u32>PT), 16);
const USES: usize = memory.data(<i32>ED25519_SLOTS * 4, 16);
const READY: usize = memory.data(<i32>ED25519_SLOTS, 16);
const TABLES: usize = memory.data(<i32>ED25519_SLOTS * 4, 16);

let baseTable: usize = 0; // set once B's table is built
let baseMemory: usize = 0; // allocated once, even if a build ran out of scratch memory

const CTX: usize = memory.data(SHA512_CTX, 16);
const HASH: usize = memory.data(64, 16);
const K: usize = memory.data(32, 16);
const S_DIGITS: usize = memory.data(64, 16);
const K_DIGITS: usize = memory.data(64, 16);
const RCHECK: usize = memory.data(32, 16);
const ACC: usize = memory.data(4 * 40, 8);

function ensureBaseTable(): bool {
  if (baseTable != 0) return true;
  const b = ACC; // scratch: a verify writes ACC only once its tables are ready
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
  store<u8>(READY + slot, 0);
  store<u32>(USES + (slot << 2), 0);
  const point = POINTS + <usize>slot * PT;
  if (!ptDecode(point, key)) return ERR_KEY;
  if (ptIsSmallOrder(point)) return ERR_KEY;
  memory.copy(KEYS + (slot << 5), key, 32);
  store<u8>(LOADED + slot, 1);
  return VALID;
}

/** Tests only: 1 when the slot's table holds its current key's multiples, else 0. */
export function ed25519SlotHot(slot: u32): i32 {
  if (slot >= ED25519_SLOTS) return ERR_SLOT;
  return <i32>load<u8>(READY + slot);
}

// Build B's table (once) and this slot's. False if memory cannot grow: the slot
// then stays on the table-free path, which needs no memory, and tries again later.
function makeHot(slot: u32): bool {
  if (!ensureBaseTable()) return false;
  let tab = <usize>load<u32>(TABLES + (slot << 2));
  if (tab == 0) {
    tab = arenaAlloc(TABLE_BYTES);
    if (tab == 0) return false;
    store<u32>(TABLES + (slot << 2), <u32>tab);
  }
  if (!buildTable(tab, POINTS + <usize>slot * PT)) return false;
  store<u8>(READY + slot, 1);
  return true;
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
  // §5.1.7 step 3, cofactorless: R' = [S]B - [k]A, then compare encodings byte for byte.
  let hot = load<u8>(READY + slot) != 0;
  if (!hot) {
    const uses = load<u32>(USES + (slot << 2));
    if (uses >= hotAfter) hot = makeHot(slot);
    else store<u32>(USES + (slot << 2), uses + 1);
  }
  if (hot) {
    scDigits(S_DIGITS, s, W, POSITIONS);
    scDigits(K_DIGITS, K, W, POSITIONS);
    sumDigits(ACC, baseTable, S_DIGITS, <usize>load<u32>(TABLES + (slot << 2)), K_DIGITS, true);
  } else {
    doubleScalarMul(ACC, s, POINTS + <usize>slot * PT, K);
  }
  ptEncode(RCHECK, ACC);
  return equalCt(RCHECK, sig, 32) ? VALID : INVALID;
}

export function ed25519Drop(slot: u32): i32 {
  if (slot >= ED25519_SLOTS) return ERR_SLOT;
  store<u8>(LOADED + slot, 0);
  store<u8>(READY + slot, 0);
  store<u32>(USES + (slot << 2), 0);
  memory.fill(KEYS + (slot << 5), 0, 32);
  memory.fill(POINTS + <usize>slot * PT, 0, PT);
  const tab = load<u32>(TABLES + (slot << 2));
  if (tab != 0) memory.fill(tab, 0, TABLE_BYTES);
  return VALID;
}
