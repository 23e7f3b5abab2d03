// Key handles for the Wasm core, in one place for callers that take both kinds (signing,
// tests, benches). The library's verify path imports the kind it needs directly
// (hmac-key.ts, ed25519-key.ts), so an HMAC-only bundle carries no Ed25519 slot code.

export { WasmKey } from './key-slot.js';
export { deferredHmacKey, importHmacKey, type HmacAlg } from './hmac-key.js';
export { importEd25519Key } from './ed25519-key.js';
