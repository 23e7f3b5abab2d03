// A response body from an issuer (a key set, a discovery document) read as UTF-8
// text, never more than a cap: a hostile or broken endpoint cannot make the
// isolate buffer an unbounded body, and the read stops at the first byte over.
// With a deadline (fetch-deadline.ts) every read is raced against it, so a body
// that drips or stalls ends the read when the deadline passes.

import { JwtError } from '../errors.js';

/** What a read needs of fetch-deadline.ts's Deadline; declared here so that the two files do not import each other. */
export interface ReadDeadline {
  readonly passed: boolean;
  race<T>(p: Promise<T>): Promise<T>;
}

/**
 * The body as text; ERR_JWKS_INVALID (`<what> too large` / `<what> is not UTF-8`)
 * once it passes `cap` bytes or is not UTF-8; ERR_JWKS_TIMEOUT when `deadline`
 * passes first (the body is cancelled); ERR_JWKS_FETCH_FAILED when the body errors.
 *
 * @example
 * const text = await readCapped(res, 256 * 1024, 'key set');
 */
export async function readCapped(res: Response, cap: number, what: string, deadline?: ReadDeadline): Promise<string> {
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
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await (deadline === undefined ? reader.read() : deadline.race(reader.read()));
    } catch (cause) {
      // The deadline passed or the stream failed: stop the body either way.
      void reader.cancel().catch(() => undefined);
      throw new JwtError(deadline?.passed === true ? 'ERR_JWKS_TIMEOUT' : 'ERR_JWKS_FETCH_FAILED', { cause });
    }
    const { done, value } = step;
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
