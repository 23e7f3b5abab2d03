// PLACEHOLDER until the Ed25519 core lands (issue 3): every call reports ERR_ALG,
// so nothing can verify through it. Replaced wholesale by the real implementation.
import { ERR_ALG, ERR_SLOT } from '../status';

export const ED25519_SLOTS: u32 = 64;

export function ed25519Import(slot: u32, key: usize): i32 {
  return slot >= ED25519_SLOTS ? ERR_SLOT : ERR_ALG;
}

export function ed25519Verify(slot: u32, msg: usize, len: usize, sig: usize): i32 {
  return slot >= ED25519_SLOTS ? ERR_SLOT : ERR_ALG;
}

export function ed25519Drop(slot: u32): i32 {
  return slot >= ED25519_SLOTS ? ERR_SLOT : ERR_ALG;
}
