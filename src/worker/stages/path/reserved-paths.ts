// The guard's own endpoints (admin.path, revocation.path, the resource metadata) answer only their exact
// spelling, before any other stage. Any other spelling that an origin may read as
// one of them (an escape, letter case, a `;param`, `//`) is refused here: it must
// never be forwarded, with whatever admin secret the client put on it.

import type { CanonicalPath, PathPolicy } from './path.js';
import { metadataPath } from '../../../resource/metadata.js';

/**
 * The reserved paths of a config, or undefined when it has none.
 *
 * @example
 * reservedPaths({ admin: { path: '/_guard' }, revocation: undefined }); // ['/_guard']
 */
export function reservedPaths(config: {
  admin: { path: string } | undefined;
  revocation: { path: string } | undefined;
  resource: { id: string } | undefined;
}): readonly string[] | undefined {
  const meta = config.resource === undefined ? undefined : metadataPath(config.resource.id);
  const paths = [config.admin?.path, config.revocation?.path, meta].filter((p): p is string => p !== undefined);
  return paths.length === 0 ? undefined : paths;
}

/**
 * Whether some reading of `path` is a reserved path (letter case folded unless
 * `caseSensitive`): a spelling of a guard endpoint that is not its exact one.
 *
 * @example
 * const c = canonicalPath('/_gu%61rd', 'reject');
 * if (c.ok && readsAsReserved(c, ['/_guard'], false)) return notFound();
 */
export function readsAsReserved(
  path: Extract<CanonicalPath, { ok: true }>,
  reserved: readonly string[],
  caseSensitive: PathPolicy['caseSensitive'],
): boolean {
  const fold = (p: string) => (caseSensitive ? p : p.toLowerCase());
  const want = reserved.map(fold);
  return path.readings.some((r) => want.includes(fold(r)));
}

/** The reserved-path stage of one guard: the 404 for a path that reads as a reserved one, else undefined. */
export type ReservedCheck = (path: Extract<CanonicalPath, { ok: true }>) => Response | undefined;

/**
 * The reserved-path check for `config`, or undefined when it has no reserved path (admin.path,
 * revocation.path, the resource metadata path): then the reservedPaths stage (index.ts) has no hook.
 *
 * @example
 * const check = reservedCheck(config);
 * const stop = check?.(path);
 */
export function reservedCheck(
  config: Parameters<typeof reservedPaths>[0] & { paths: Pick<PathPolicy, 'caseSensitive'> },
): ReservedCheck | undefined {
  const reserved = reservedPaths(config);
  if (reserved === undefined) return undefined;
  return (path) => (readsAsReserved(path, reserved, config.paths.caseSensitive) ? reservedSpelling() : undefined);
}

/**
 * The 404 for such a spelling (no token check, nothing forwarded).
 *
 * @example
 * return reservedSpelling();
 */
export function reservedSpelling(): Response {
  return new Response(JSON.stringify({ error: 'not_found' }), {
    status: 404,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}
