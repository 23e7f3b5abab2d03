// Status codes returned by the Wasm core (mirror of assembly/status.ts).
export const VALID = 1;
export const INVALID = 0;
export const ERR_SLOT = -1;
export const ERR_LENGTH = -2;
export const ERR_ALG = -3;
export const ERR_KEY = -4;
export const ERR_EMPTY_SLOT = -5;
export const ERR_PAYLOAD_ENCODING = -6;
export const ERR_SIGNATURE_ENCODING = -7;
