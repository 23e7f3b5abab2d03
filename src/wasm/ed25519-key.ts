// Ed25519 public keys in Wasm key slots. A slot carries a precomputed table once its
// key is hot (about 160 KiB each, built at the 21st verify), so there are few of them
// and they act as a cache: a key keeps its public bytes, and when every slot is taken
// the least recently used key gives its slot up and imports again at its next verify.
// Imports therefore never fail for want of a slot, even when dead keys still await
// the garbage collector.

import { JwtError } from '../errors.js';
import { ed25519Drop, ed25519Import, hasFreeEd25519Slot } from './core.js';
import { checkEd25519KnownAnswer } from './ed25519-known-answer.js';
import { getCore } from './instance.js';
import { WasmKey, giveUp, type SlotRef } from './key-slot.js';

/** The loaded keys by slot; Map order is recency order. */
const resident = new Map<number, SlotRef>();

function releaseEd25519(slot: number): void {
  resident.delete(slot);
  ed25519Drop(getCore(), slot);
}

function evictLeastRecent(): void {
  const first = resident.values().next();
  if (!first.done) giveUp(first.value);
}

class Ed25519Key extends WasmKey {
  readonly kind = 'ed25519' as const;
  /** Kept to import again after the slot was evicted. */
  readonly #publicKey: Uint8Array;

  constructor(publicKey: Uint8Array) {
    super('EdDSA', 64, releaseEd25519);
    this.#publicKey = publicKey;
  }

  protected claim(ref: SlotRef): number {
    if (ref.slot < 0) {
      const core = getCore();
      checkEd25519KnownAnswer(core);
      if (!hasFreeEd25519Slot(core)) evictLeastRecent();
      ref.slot = ed25519Import(core, this.#publicKey);
    } else {
      resident.delete(ref.slot);
    }
    resident.set(ref.slot, ref);
    return ref.slot;
  }
}

/**
 * An Ed25519 public key (32 bytes, copied), imported into a slot now; a malformed or
 * weak key throws ERR_KEY_INVALID.
 * @example
 * const key = importEd25519Key(publicKeyBytes);
 */
export function importEd25519Key(publicKey: Uint8Array): WasmKey {
  if (!(publicKey instanceof Uint8Array)) throw new JwtError('ERR_KEY_INVALID', { reason: 'public key must be bytes' });
  const key = new Ed25519Key(publicKey.slice());
  key.slot();
  return key;
}
