// Internals of the SHA-2 code: byte order, padding at every boundary that
// changes the number of final blocks, and the length counter.
import { loadBe32, storeBe32, sha256Init, sha256Update, sha256Final, SHA256_CTX } from '../sha256';
import { hexOf } from './hex';
import { loadBe64, storeBe64, sha512Init, sha512Update, sha512Final, SHA512_CTX } from '../sha512';
import { sha2SetWarmAfter } from '../sha2-first-use';

const MSG = memory.data(256);
const CTX = memory.data(SHA512_CTX);
const OUT = memory.data(64);

function fillA(len: usize): void {
  memory.fill(MSG, 0x61, len);
}

function sha256Of(len: usize): string {
  fillA(len);
  sha256Init(CTX);
  sha256Update(CTX, MSG, len);
  sha256Final(CTX, OUT);
  return hexOf(OUT, 32);
}

function sha512Prefix(len: usize, is384: bool): string {
  fillA(len);
  sha512Init(CTX, is384);
  sha512Update(CTX, MSG, len);
  sha512Final(CTX, OUT, is384 ? 48 : 64);
  return hexOf(OUT, 16);
}

describe('byte order helpers', () => {
  it('reads and writes big-endian u32', () => {
    store<u8>(MSG, 0x01); store<u8>(MSG, 0x02, 1); store<u8>(MSG, 0x03, 2); store<u8>(MSG, 0x04, 3);
    expect<u32>(loadBe32(MSG)).toBe(0x01020304);
    storeBe32(MSG, 0xa1b2c3d4);
    expect<u8>(load<u8>(MSG)).toBe(0xa1);
    expect<u8>(load<u8>(MSG, 3)).toBe(0xd4);
  });

  it('reads and writes big-endian u64', () => {
    storeBe64(MSG, 0x0102030405060708);
    expect<u8>(load<u8>(MSG)).toBe(0x01);
    expect<u8>(load<u8>(MSG, 7)).toBe(0x08);
    expect<u64>(loadBe64(MSG)).toBe(0x0102030405060708);
  });
});

describe('SHA-256 padding (FIPS 180-4 §5.1.1)', () => {
  // 55 bytes is the longest message whose padding fits its own block; 56 spills.
  it('pads the empty message', () => {
    expect<string>(sha256Of(0)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
  it('fits 0x80 and the length in one block at 55 bytes', () => {
    expect<string>(sha256Of(55)).toBe('9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318');
  });
  it('needs a second block at 56 bytes', () => {
    expect<string>(sha256Of(56)).toBe('b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a');
  });
  it('handles 63 and 64 bytes', () => {
    expect<string>(sha256Of(63)).toBe('7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34');
    expect<string>(sha256Of(64)).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
  });
  it('counts absorbed bytes across split updates', () => {
    fillA(128);
    sha256Init(CTX);
    sha256Update(CTX, MSG, 10);
    sha256Update(CTX, MSG + 10, 60);
    expect<u64>(load<u64>(CTX + 96)).toBe(70);
    sha256Update(CTX, MSG + 70, 58);
    sha256Final(CTX, OUT);
    expect<string>(hexOf(OUT, 32)).toBe('6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e');
  });
  it('wipes the context when it finishes', () => {
    sha256Of(3);
    let nonzero = 0;
    for (let i: usize = 0; i < SHA256_CTX; i++) if (load<u8>(CTX + i) != 0) nonzero++;
    expect<i32>(nonzero).toBe(0);
  });
});

describe('SHA-512/384 padding (FIPS 180-4 §5.1.2)', () => {
  // 111 bytes fits with the 16-byte length; 112 spills into a second block.
  it('pads around the 112-byte boundary', () => {
    expect<string>(sha512Prefix(111, false)).toBe('fa9121c7b32b9e01733d034cfc78cbf6');
    expect<string>(sha512Prefix(112, false)).toBe('c01d080efd492776a1c43bd23dd99d0a');
    expect<string>(sha512Prefix(127, false)).toBe('828613968b501dc00a97e08c73b118aa');
    expect<string>(sha512Prefix(128, false)).toBe('b73d1929aa615934e61a871596b3f3b3');
  });
  it('uses the SHA-384 initial value and truncation', () => {
    expect<string>(sha512Prefix(0, true)).toBe('38b060a751ac96384cd9327eb1b1e36a');
    expect<string>(sha512Prefix(112, true)).toBe('187d4e07cb306103c69967bf544d0dfb');
  });
});

// The first blocks of each family go through the looped compression, later ones
// through the unrolled one (../sha2-first-use): each must give the same digests.
const ALWAYS_LOOPED: u32 = 0xffffffff;
const ALWAYS_UNROLLED: u32 = 0;

function expectKnownDigests(): void {
  expect<string>(sha256Of(0)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect<string>(sha256Of(55)).toBe('9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318');
  expect<string>(sha256Of(56)).toBe('b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a');
  expect<string>(sha256Of(64)).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
  expect<string>(sha256Of(200)).toBe('c2a908d98f5df987ade41b5fce213067efbcc21ef2240212a41e54b5e7c28ae5');
  expect<string>(sha256Of(256)).toBe('02d7160d77e18c6447be80c2e355c7ed4388545271702c50253b0914c65ce5fe');
  expect<string>(sha512Prefix(111, false)).toBe('fa9121c7b32b9e01733d034cfc78cbf6');
  expect<string>(sha512Prefix(112, false)).toBe('c01d080efd492776a1c43bd23dd99d0a');
  expect<string>(sha512Prefix(128, false)).toBe('b73d1929aa615934e61a871596b3f3b3');
  expect<string>(sha512Prefix(200, false)).toBe('4b11459c33f52a22ee8236782714c150');
  expect<string>(sha512Prefix(256, false)).toBe('6a9169eb662f136d87374070e8828b3e');
  expect<string>(sha512Prefix(0, true)).toBe('38b060a751ac96384cd9327eb1b1e36a');
  expect<string>(sha512Prefix(200, true)).toBe('0691b6e978614b67d60557b2a2cddd53');
  expect<string>(sha512Prefix(256, true)).toBe('ee89d91a5f594f72052c561e5c245828');
}

describe('SHA-2 compression, looped (first use) and unrolled', () => {
  it('gives the known digests on the looped compression only', () => {
    const previous = sha2SetWarmAfter(ALWAYS_LOOPED);
    expectKnownDigests();
    sha2SetWarmAfter(previous);
  });
  it('gives the known digests on the unrolled compression only', () => {
    const previous = sha2SetWarmAfter(ALWAYS_UNROLLED);
    expectKnownDigests();
    sha2SetWarmAfter(previous);
  });
  it('gives the known digests when the switch falls inside a message', () => {
    // 200 and 256 bytes are 4-5 SHA-256 blocks and 2-3 SHA-512 blocks: the switch lands mid-message.
    for (let n: u32 = 1; n <= 5; n++) {
      const previous = sha2SetWarmAfter(n);
      expectKnownDigests();
      sha2SetWarmAfter(previous);
    }
  });
  it('wipes the context when it finishes on the looped compression', () => {
    const previous = sha2SetWarmAfter(ALWAYS_LOOPED);
    sha256Of(3);
    let nonzero = 0;
    for (let i: usize = 0; i < SHA256_CTX; i++) if (load<u8>(CTX + i) != 0) nonzero++;
    expect<i32>(nonzero).toBe(0);
    sha2SetWarmAfter(previous);
  });
});
