// Status codes returned across the Wasm boundary. The core never traps on bad
// input: every entry point checks its arguments and answers with one of these.
// The JS side's copy (src/wasm/abi.ts) is generated from this file: `npm run gen`.

export const VALID: i32 = 1;
export const INVALID: i32 = 0;
export const ERR_SLOT: i32 = -1;
export const ERR_LENGTH: i32 = -2;
export const ERR_ALG: i32 = -3;
export const ERR_KEY: i32 = -4;
export const ERR_EMPTY_SLOT: i32 = -5;
export const ERR_PAYLOAD_ENCODING: i32 = -6;
export const ERR_SIGNATURE_ENCODING: i32 = -7;
