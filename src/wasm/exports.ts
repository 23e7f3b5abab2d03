// The shape of the Wasm core's exports (assembly/index.ts). Only numbers cross.
export interface CoreExports {
  memory: WebAssembly.Memory;
  /** Immutable globals (read `.value`): the regions' addresses and sizes, no call needed. */
  input_ptr: WebAssembly.Global<'i32'>;
  input_cap: WebAssembly.Global<'i32'>;
  sig_ptr: WebAssembly.Global<'i32'>;
  sig_cap: WebAssembly.Global<'i32'>;
  out_ptr: WebAssembly.Global<'i32'>;
  payload_ptr: WebAssembly.Global<'i32'>;
  extra_ptr: WebAssembly.Global<'i32'>;
  /** HMAC key slots at instantiation (hmac_slots() is the count now, after growth). */
  hmac_slots_initial: WebAssembly.Global<'i32'>;
  /** Ed25519 key slots (fixed). */
  ed25519_slots: WebAssembly.Global<'i32'>;
  /**
   * Decode the compact JWS in INPUT (dots at headerEnd and payloadEnd): (payload length << 2 | UTF-8 class), or a
   * status.
   */
  jws_decode(len: number, headerEnd: number, payloadEnd: number): number;
  input_wipe(len: number): void;
  hash(alg: number, len: number): number;
  hash_init(alg: number): number;
  hash_update(len: number): number;
  hash_final(): number;
  hmac_slots(): number;
  hmac_grow(): number;
  hmac_import(slot: number, alg: number, keyLen: number): number;
  hmac_verify(slot: number, len: number, tagLen: number): number;
  hmac_compute(slot: number, len: number): number;
  /**
   * INPUT holds the header segment, PAYLOAD the claims JSON, EXTRA members to insert: the whole signed token is written
   * to INPUT; its length, or a status.
   */
  hmac_sign_jws(slot: number, headerLen: number, payloadLen: number, extraLen: number): number;
  hmac_drop(slot: number): number;
  ed25519_import(slot: number): number;
  ed25519_verify(slot: number, len: number): number;
  ed25519_drop(slot: number): number;
  /** Tests/benchmarks only: verifies before a key's table is built; returns the previous value. */
  ed25519_test_hot_after(n: number): number;
  /** Tests and benchmarks: SHA-2 blocks on the looped code before the unrolled one (see assembly/sha2-first-use.ts). */
  sha2_test_warm_after(n: number): number;
  /** Tests only: 1 if the slot's fixed-base table is built for its key. */
  ed25519_test_slot_hot(slot: number): number;
}
