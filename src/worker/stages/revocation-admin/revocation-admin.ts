// The revocation admin endpoint (`revocation.path`): with the admin secret in
// `X-Guard-Admin`, POST {"jti","exp"} or {"iss","sub","issuedBefore","exp"} revokes,
// GET lists what is in force. The guard answers it before any token check. The entry
// is checked here and again by the list; the body is read to at most 4 KiB.

import { isJwtError } from '../../../errors.js';
import { readCapped } from '../../../keys/read-capped.js';
import { hasAdminSecret, unauthorized } from '../admin/admin.js';
import { MAX_ENTRY_LIFETIME_S, parseRevocationEntry } from '../../revocation/entry.js';
import type { RevocationView } from '../../revocation/view.js';
import type { RevocationWriter } from '../../revocation/writer.js';

/** The largest revocation body accepted. */
export const MAX_REVOCATION_BODY = 4096;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });

/**
 * Answer one request to the revocation path: 401 without the secret; POST: 200
 * `{version}`, 400 `invalid_json` / `invalid_entry` (with a fixed reason), 413
 * `too_large`, 507 `list_full`, 503 `store_unavailable`; GET: 200 `{version, entries}`;
 * other methods 405. After a revocation this isolate's view refreshes before answering.
 *
 * @example
 * if (url.pathname === config.revocation.path) return revocationAdmin(request, { secret, writer, view, now });
 */
export async function revocationAdmin(
  request: Request,
  g: { secret: string; writer: RevocationWriter; view: RevocationView; now: () => number; graceS?: number },
): Promise<Response> {
  if (!(await hasAdminSecret(request, g.secret))) return unauthorized();
  if (request.method === 'GET') {
    try {
      const list = await g.writer.list();
      return json(200, { version: list.version, entries: list.entries });
    } catch {
      return json(503, { error: 'store_unavailable' }, { 'retry-after': '1' });
    }
  }
  if (request.method !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'GET, POST' });
  // A declared length over the cap is refused before any byte is read; the read stops at the cap anyway.
  if (Number(request.headers.get('content-length') ?? 0) > MAX_REVOCATION_BODY)
    return json(413, { error: 'too_large' });
  let text: string;
  try {
    text = await readCapped(new Response(request.body), MAX_REVOCATION_BODY, 'revocation');
  } catch (e) {
    const tooLarge = isJwtError(e) && e.message.endsWith('revocation too large');
    return tooLarge ? json(413, { error: 'too_large' }) : json(400, { error: 'invalid_json' });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json(400, { error: 'invalid_json' });
  }
  const nowS = Math.floor(g.now() / 1000);
  const parsed = parseRevocationEntry(body, nowS);
  if (typeof parsed === 'string') return json(400, { error: 'invalid_entry', reason: parsed });
  // The guard accepts a token until its exp + clockTolerance (graceS): an entry set to that exp is kept as long.
  const entry = { ...parsed, exp: Math.min(parsed.exp + (g.graceS ?? 0), nowS + MAX_ENTRY_LIFETIME_S) };
  let added: Awaited<ReturnType<RevocationWriter['revoke']>>;
  try {
    added = await g.writer.revoke(entry);
  } catch {
    return json(503, { error: 'store_unavailable' }, { 'retry-after': '1' });
  }
  if (added === 'full') return json(507, { error: 'list_full' });
  await g.view.refresh();
  return json(200, { version: added.version });
}
