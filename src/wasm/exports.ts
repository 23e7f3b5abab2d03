// The shape of the Wasm core's exports (assembly/index.ts). Only numbers cross.
export interface CoreExports {
  memory: WebAssembly.Memory;
  input_ptr(): number;
  input_cap(): number;
  sig_ptr(): number;
  sig_cap(): number;
  out_ptr(): number;
  payload_ptr(): number;
  extra_ptr(): number;
  /** Decode the compact JWS in INPUT (dots at headerEnd and payloadEnd): (payload length << 2 | UTF-8 class), or a status. */
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
  /** INPUT holds the header segment, PAYLOAD the claims JSON, EXTRA members to insert: the whole signed token is written to INPUT; its length, or a status. */
  hmac_sign_jws(slot: number, headerLen: number, payloadLen: number, extraLen: number): number;
  hmac_drop(slot: number): number;
  ed25519_slots(): number;
  ed25519_import(slot: number): number;
  ed25519_verify(slot: number, len: number): number;
  ed25519_drop(slot: number): number;
  /** Tests/benchmarks only: verifies before a key's table is built; returns the previous value. */
  ed25519_test_hot_after(n: number): number;
  /** Tests only: 1 if the slot's fixed-base table is built for its key. */
  ed25519_test_slot_hot(slot: number): number;
}
