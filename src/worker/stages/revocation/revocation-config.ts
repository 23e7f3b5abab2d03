// The `revocation` section: where the admin endpoint answers, the secret it wants,
// where the list lives, and how fresh each isolate's copy must be. Checked before
// the first request; the stage itself is revocation-stage.ts.

import { ConfigError } from '../../config-error.js';
import { REVOCATION_KEYS } from '../../config-keys.js';
import { absPath, isObject, knownKeys, num, section, str } from '../../config-values.js';

export interface RevocationConfig {
  /** The admin endpoint (POST a revocation, GET the list), answered before any token check. */
  path: string;
  /** The secret binding `X-Guard-Admin` must carry. */
  secretBinding: string;
  /** The RevocationList Durable Object binding, or this isolate alone (tests, one-isolate dev). */
  store: { durableObject: string } | 'isolate';
  /** An isolate's copy older than this is refreshed before it answers (the bound on learning of a revocation). */
  refreshMs: number;
  /** One refresh waits at most this long. */
  timeoutMs: number;
  /** Past this age without a good refresh every verdict is "unavailable" (503): fail closed. */
  maxStaleMs: number;
}

/**
 * The `revocation` section, or undefined when it is absent (no revocation stage).
 *
 * @example
 * parseRevocation({
 *   path: '/__guard/revocations',
 *   secretBinding: 'REVOCATION_SECRET',
 *   store: { durableObject: 'REVOCATIONS' },
 * });
 */
export function parseRevocation(v: unknown, adminPath: string | undefined): RevocationConfig | undefined {
  const r = section(v, 'revocation', REVOCATION_KEYS, 'expected { "path": ..., "secretBinding": ..., "store": ... }');
  if (r === undefined) return undefined;
  const path = absPath(r.path, 'revocation.path');
  if (path === adminPath) throw new ConfigError('revocation.path', 'the same path as admin.path');
  const refreshMs = num(r.refreshMs, 'revocation.refreshMs', 1_000, 100, 60_000);
  const maxStaleMs = num(r.maxStaleMs, 'revocation.maxStaleMs', Math.max(10_000, refreshMs), 1_000, 600_000);
  if (maxStaleMs < refreshMs) throw new ConfigError('revocation.maxStaleMs', 'must be at least revocation.refreshMs');
  return {
    path,
    secretBinding: str(r.secretBinding, 'revocation.secretBinding'),
    store: parseStore(r.store),
    refreshMs,
    timeoutMs: num(r.timeoutMs, 'revocation.timeoutMs', 250, 10, 5_000),
    maxStaleMs,
  };
}

function parseStore(v: unknown): RevocationConfig['store'] {
  if (v === 'isolate') return 'isolate';
  if (!isObject(v)) throw new ConfigError('revocation.store', 'expected { "durableObject": "<binding>" } or "isolate"');
  knownKeys(v, 'revocation.store', new Set(['durableObject']));
  return { durableObject: str(v.durableObject, 'revocation.store.durableObject') };
}
