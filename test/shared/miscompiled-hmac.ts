// A Wasm core whose HMAC over one hash accepts every tag (the other hashes stay sound): the fault
// the self-test's HS384/HS512 known answers must catch. For tests that can spy (vitest's `vi`).
import { Core } from '../../src/wasm/core.js';

type SpyOn = (
  obj: typeof Core.prototype,
  method: 'hmacImport' | 'verify',
) => { mockImplementation(fn: (this: Core, ...args: never[]) => unknown): unknown };

/**
 * From now on HMAC over `hash` ('SHA-384', 'SHA-512') accepts any tag; `spyOn` is vi.spyOn (restore with
 * vi.restoreAllMocks).
 */
export function miscompileHmac(hash: string, spyOn: SpyOn): void {
  const slotHash = new Map<number, string>();
  const hmacImport = Core.prototype.hmacImport;
  spyOn(Core.prototype, 'hmacImport').mockImplementation(function (
    this: Core,
    ...args: Parameters<Core['hmacImport']>
  ) {
    const slot = hmacImport.apply(this, args);
    slotHash.set(slot, args[0]);
    return slot;
  });
  const verify = Core.prototype.verify;
  spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, ...args: Parameters<Core['verify']>) {
    return (args[0] === 'hmac' && slotHash.get(args[1]) === hash) || verify.apply(this, args);
  });
}
