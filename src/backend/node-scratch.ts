// One reused buffer for the signing input of node:crypto's sign and verify: both read
// it synchronously before they return, so nothing can observe it afterwards and no
// per-call buffer is needed.

const scratch = Buffer.allocUnsafe(65_536);

/**
 * `text` (the ASCII signing input) as bytes in the shared buffer, or in a fresh one when it does not fit.
 *
 * @example
 * crypto.verify('sha256', toScratch(signingInput), key, signature);
 */
export function toScratch(text: string): Buffer {
  if (text.length > scratch.length) return Buffer.from(text, 'latin1');
  return scratch.subarray(0, scratch.write(text, 0, 'latin1'));
}
