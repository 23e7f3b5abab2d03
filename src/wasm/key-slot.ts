// What every key living in a Wasm key slot shares (HMAC keys in hmac-key.ts, Ed25519
// keys in ed25519-key.ts): the slot it holds, drop(), and the garbage collector as a
// safety net that gives the slot back when a key is collected without drop().

import { JwtError } from '../errors.js';
import type { WasmScheme } from './core.js';

/** Which slot a key holds (-1 once given up, or before it is loaded), and how its kind gives one back. */
export interface SlotRef {
  slot: number;
  readonly release: (slot: number) => void;
}

/**
 * Give the slot `ref` holds back to the core (nothing when it holds none).
 * @example
 * giveUp(ref); // ref.slot is -1 afterwards
 */
export function giveUp(ref: SlotRef): void {
  const slot = ref.slot;
  if (slot < 0) return;
  ref.slot = -1;
  ref.release(slot);
}

// Workers before the `enable_weak_ref` compatibility flag (2025) have no FinalizationRegistry:
// there, slots come back only through drop() (HMAC slots still grow, Ed25519 slots are an LRU).
const released: FinalizationRegistry<SlotRef> | undefined =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<SlotRef>(giveUp) : undefined;

/**
 * A key living in a Wasm key slot. Opaque to callers; `drop()` frees the slot at once.
 * @example
 * const key = importHmacKey(secret, 'HS256');
 * getCore().verify(key.kind, key.slot(), signed);
 * key.drop();
 */
export abstract class WasmKey {
  abstract readonly kind: WasmScheme;
  /** Full tag length for HMAC keys, 64 for Ed25519. */
  readonly signatureLength: number;
  readonly alg: string;
  readonly #ref: SlotRef;
  #dropped = false;

  constructor(alg: string, signatureLength: number, release: (slot: number) => void) {
    this.alg = alg;
    this.signatureLength = signatureLength;
    this.#ref = { slot: -1, release };
    released?.register(this, this.#ref, this);
  }

  get dropped(): boolean {
    return this.#dropped;
  }

  /** @internal the slot (loading the key into one first where needed), or a JwtError if the key was dropped. */
  slot(): number {
    if (this.#dropped) throw new JwtError('ERR_KEY_INVALID', { reason: 'key was dropped' });
    return this.claim(this.#ref);
  }

  drop(): void {
    if (this.#dropped) return;
    this.#dropped = true;
    released?.unregister(this);
    giveUp(this.#ref);
  }

  /** The slot `ref` holds once the key is in it (its kind loads it, or marks it used). */
  protected abstract claim(ref: SlotRef): number;
}
