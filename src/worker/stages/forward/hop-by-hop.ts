// Hop-by-hop fields (RFC 9110 §7.6.1): they describe the client's connection to the
// guard, not the request, so they never travel on to the origin. A `Connection`
// header names more such fields; an HTTP/1.1 hop after the guard would remove what
// it names, so a client's `Connection: close, x-auth-sub` would strip the identity
// header the guard set. The guard removes them itself, before it sets its own.

import { headerNames } from '../../header-names.js';

/** Always hop-by-hop (RFC 9110 §7.6.1, §7.8; RFC 9112 §6.1; `Proxy-Connection` and `Keep-Alive` by usage). */
const ALWAYS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
]);

/**
 * Fields Cloudflare's edge adds after the client's hop: a client's `Connection` did not
 * send them, so it cannot name them away (that would hide its address from the origin).
 */
function addedByEdge(name: string): boolean {
  return (
    name.startsWith('cf-') || name === 'x-forwarded-for' || name === 'x-forwarded-proto' || name === 'true-client-ip'
  );
}

/**
 * Remove the hop-by-hop fields from the headers that go to the origin: `Connection`,
 * `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Transfer-Encoding`, and every
 * field any `Connection` header lists (case-insensitive, separated by commas or spaces). `Upgrade`
 * stays only for a WebSocket upgrade (the runtime's fetch performs that handshake
 * itself); any other `Upgrade` is dropped. Call it before the guard sets its own headers.
 * `names`: the names `headers` holds (Headers.keys()), when the caller has them already.
 *
 * @example
 * const h = new Headers({ connection: 'close, X-Auth-Sub', 'x-auth-sub': 'root', te: 'trailers' });
 * dropHopByHop(h);
 * h.has('x-auth-sub'); // false (and no connection or te either)
 */
export function dropHopByHop(headers: Headers, names: Iterable<string> = headerNames(headers)): void {
  // One walk over the names the request has, instead of a delete per hop-by-hop name it usually lacks.
  let present: string[] | undefined;
  let connection = false;
  let upgradeSent = false;
  for (const name of names) {
    if (name === 'upgrade') upgradeSent = true;
    else if (ALWAYS.has(name)) {
      (present ??= []).push(name);
      if (name === 'connection') connection = true;
    }
  }
  // Several Connection headers arrive joined with ", " by Headers.get; read before anything is deleted.
  const listed = connection ? headers.get('connection') : null;
  const upgrade = upgradeSent ? headers.get('upgrade') : null;
  if (present !== undefined) for (const name of present) headers.delete(name);
  if (listed !== null) {
    // Split on spaces too: a lenient hop may read `close x-auth-sub` as two names (remove more, never less).
    for (const raw of listed.split(/[\s,]+/)) {
      const name = raw.toLowerCase();
      if (!FIELD_NAME.test(name) || addedByEdge(name) || name === 'upgrade') continue;
      headers.delete(name);
    }
  }
  if (upgrade !== null && !isWebSocketUpgrade(upgrade)) headers.delete('upgrade');
}

/** RFC 9110 §5.1: a field name is a token. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** `Upgrade: websocket` (RFC 6455 §4.1; the protocol name is case-insensitive). */
function isWebSocketUpgrade(value: string): boolean {
  return value.split(',').some((p) => p.trim().toLowerCase() === 'websocket');
}
