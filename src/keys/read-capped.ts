// A response body from an issuer (a key set, a discovery document) read as UTF-8
// text, never more than a cap: a hostile or broken endpoint cannot make the
// isolate buffer an unbounded body, and the read stops at the first byte over.

import { JwtError } from '../errors.js';

/**
 * The body as text; ERR_JWKS_INVALID (`<what> too large` / `<what> is not UTF-8`)
 * once it passes `cap` bytes or is not UTF-8.
 *
 * @example
 * const text = await readCapped(res, 256 * 1024, 'key set');
 */
export async function readCapped(res: Response, cap: number, what: string): Promise<string> {
  const tooLarge = (): JwtError => new JwtError('ERR_JWKS_INVALID', { reason: `${what} too large` });
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > cap) {
    void res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > cap) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new JwtError('ERR_JWKS_INVALID', { reason: `${what} is not UTF-8` });
  }
}
