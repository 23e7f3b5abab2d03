// Internals of the HMAC slots and the constant-time comparison.
import {
  hmacImport,
  hmacVerify,
  hmacCompute,
  hmacDrop,
  digestLength,
  blockLength,
  HMAC_SLOTS,
  HMAC_MAX_SLOTS,
  hmacGrow,
  hmacSlotCount,
  HASH_SHA256,
  HASH_SHA384,
  HASH_SHA512,
} from '../hmac';
import { equalCt } from '../regions';
import { VALID, INVALID, ERR_SLOT, ERR_ALG, ERR_LENGTH, ERR_EMPTY_SLOT } from '../status';

const KEY = memory.data(32);
const MSG = memory.data(16);
const TAG = memory.data(64);
const A = memory.data(8);
const B = memory.data(8);

describe('lengths', () => {
  it('knows each hash', () => {
    expect<u32>(digestLength(HASH_SHA256)).toBe(32);
    expect<u32>(digestLength(HASH_SHA384)).toBe(48);
    expect<u32>(digestLength(HASH_SHA512)).toBe(64);
    expect<u32>(digestLength(0)).toBe(0);
    expect<u32>(blockLength(HASH_SHA256)).toBe(64);
    expect<u32>(blockLength(HASH_SHA512)).toBe(128);
  });
});

describe('equalCt', () => {
  it('compares every byte', () => {
    memory.fill(A, 7, 8);
    memory.fill(B, 7, 8);
    expect<bool>(equalCt(A, B, 8)).toBe(true);
    store<u8>(B, 8);
    expect<bool>(equalCt(A, B, 8)).toBe(false);
    store<u8>(B, 7);
    store<u8>(B, 0x87, 7);
    expect<bool>(equalCt(A, B, 8)).toBe(false);
    expect<bool>(equalCt(A, B, 7)).toBe(true);
  });
});

describe('slots', () => {
  it('computes RFC 4231 case 1 for SHA-256', () => {
    memory.fill(KEY, 0x0b, 20);
    // "Hi There"
    store<u64>(MSG, 0x6572656854206948);
    expect<i32>(hmacImport(3, HASH_SHA256, KEY, 20)).toBe(VALID);
    expect<i32>(hmacCompute(3, MSG, 8, TAG)).toBe(32);
    expect<u8>(load<u8>(TAG)).toBe(0xb0);
    expect<u8>(load<u8>(TAG, 31)).toBe(0xf7);
    expect<i32>(hmacVerify(3, MSG, 8, TAG, 32)).toBe(VALID);
    store<u8>(TAG, 0xb1);
    expect<i32>(hmacVerify(3, MSG, 8, TAG, 32)).toBe(INVALID);
    expect<i32>(hmacDrop(3)).toBe(VALID);
    expect<i32>(hmacVerify(3, MSG, 8, TAG, 32)).toBe(ERR_EMPTY_SLOT);
  });

  it('answers bad arguments with status codes', () => {
    expect<i32>(hmacImport(HMAC_SLOTS, HASH_SHA256, KEY, 20)).toBe(ERR_SLOT);
    expect<i32>(hmacImport(0, 7, KEY, 20)).toBe(ERR_ALG);
    expect<i32>(hmacImport(0, HASH_SHA256, KEY, 20)).toBe(VALID);
    expect<i32>(hmacVerify(0, MSG, 8, TAG, 0)).toBe(ERR_LENGTH);
    expect<i32>(hmacVerify(0, MSG, 8, TAG, 33)).toBe(ERR_LENGTH);
    expect<i32>(hmacDrop(HMAC_SLOTS + 5)).toBe(ERR_SLOT);
    hmacDrop(0);
  });

  it('grows by doubling, keeps slot contents, and stops at the maximum', () => {
    memory.fill(KEY, 0x0b, 20);
    store<u64>(MSG, 0x6572656854206948);
    expect<i32>(hmacImport(HMAC_SLOTS - 1, HASH_SHA256, KEY, 20)).toBe(VALID);
    expect<i32>(hmacCompute(HMAC_SLOTS - 1, MSG, 8, TAG)).toBe(32);
    expect<i32>(hmacImport(HMAC_SLOTS, HASH_SHA256, KEY, 20)).toBe(ERR_SLOT);
    expect<u32>(hmacGrow()).toBe(HMAC_SLOTS * 2);
    expect<i32>(hmacVerify(HMAC_SLOTS - 1, MSG, 8, TAG, 32)).toBe(VALID);
    expect<i32>(hmacImport(HMAC_SLOTS, HASH_SHA256, KEY, 20)).toBe(VALID);
    while (hmacSlotCount() < HMAC_MAX_SLOTS) hmacGrow();
    expect<u32>(hmacGrow()).toBe(HMAC_MAX_SLOTS);
    expect<i32>(hmacVerify(HMAC_SLOTS - 1, MSG, 8, TAG, 32)).toBe(VALID);
  });
});
