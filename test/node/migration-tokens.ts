// Tokens for the migration-note tests (migration-hono, migration-peers): HS256 over
// exact header and payload bytes, so each "stricter" row can build what the peer
// accepts and edgejwt refuses.
import { createHmac } from 'node:crypto';

export const SECRET_TEXT = 'a shared secret of at least 32 bytes';
export const SECRET = new TextEncoder().encode(SECRET_TEXT);
export const now = () => Math.floor(Date.now() / 1000);
const b64u = (v: object | string) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** An HS256 token over exactly these header and payload bytes. */
export function hs256(header: object | string, payload: object | string, secret: string = SECRET_TEXT): string {
  const input = `${b64u(header)}.${b64u(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/** The "stricter" tokens both notes list: what each is, and the code edgejwt refuses it with. */
export const STRICTER_TOKENS = {
  noExp: () => hs256({ alg: 'HS256', typ: 'JWT' }, { sub: 'a' }),
  over16KiB: () => hs256({ alg: 'HS256' }, { sub: 'a', exp: now() + 60, pad: 'x'.repeat(20_000) }),
  headerMemberTwice: () => hs256('{"alg":"HS256","alg":"HS256"}', { sub: 'a', exp: now() + 60 }),
  /** `typ: ""`: no media type at all (RFC 7515 §4.1.9). */
  emptyTyp: () => hs256({ alg: 'HS256', typ: '' }, { sub: 'a', exp: now() + 60 }),
  /** A valid token whose last signature character has a non-zero unused bit. */
  nonZeroTrailingBits: () => {
    const t = hs256({ alg: 'HS256' }, { sub: 'a', exp: now() + 60 });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    return t.slice(0, -1) + alphabet[alphabet.indexOf(t.at(-1)!) ^ 1];
  },
};
