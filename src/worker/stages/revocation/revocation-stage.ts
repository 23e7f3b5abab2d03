// The revocation stage, last after the verify: every verified identity (from L1, L2
// or a full verify alike) is checked against this isolate's copy of the revocation
// list. Revoked: 401. The list cannot be known to be current: 503, never a pass
// (fail closed; there is no setting that accepts on a stale list). build.ts loads
// this module only when `revocation` is configured.

import type { AfterVerifyStage } from '../../stage.js';
import { adminSecret } from '../admin/admin.js';
import { ConfigError } from '../../config-error.js';
import { withTiming } from '../observe/observe.js';
import * as answer from '../../responses.js';
import { challengeResponse } from '../../../bearer/challenge.js';
import type { RevocationConfig } from './revocation-config.js';
import { revocationAdmin } from '../revocation-admin/revocation-admin.js';
import {
  durableObjectRevocationSource,
  isolateRevocationStore,
  type RevocationNamespace,
  type RevocationSource,
} from '../../revocation/source.js';
import { RevocationView } from '../../revocation/view.js';
import {
  durableObjectRevocationWriter,
  isolateRevocationWriter,
  type RevocationWriter,
} from '../../revocation/writer.js';

/** The name of the one RevocationList object in the namespace (config, never the request). */
export const REVOCATION_OBJECT_NAME = 'revocations';
/** How long an admin write or list may wait for the object. */
const ADMIN_TIMEOUT_MS = 5_000;

/**
 * The stage over one isolate's view: `revoked` (401 `invalid_token`) or
 * `revocation_unavailable` (503, Retry-After 1); otherwise it continues.
 *
 * @example
 * stages.push(revocationStage(new RevocationView(source, { required: true }), config.realm));
 */
export function revocationStage(view: RevocationView, realm: string): AfterVerifyStage {
  const verdict: AfterVerifyStage = (cx, id, observe) => {
    const v = view.checkNow(id.payload);
    if (v === undefined) return view.check(id.payload).then((later) => answerFor(later, cx, id, observe));
    return v === 'ok' ? undefined : answerFor(v, cx, id, observe);
  };
  const answerFor = (v: 'ok' | 'revoked' | 'unavailable', ...[cx, id, observe]: Parameters<AfterVerifyStage>) => {
    if (v === 'ok') return undefined;
    observe.count(v === 'revoked' ? 'rejected:revoked' : 'rejected:revocation_unavailable');
    if (v === 'revoked')
      return observe.refuse(cx, withTiming(answer.invalidToken(realm, 'The access token was revoked'), id.timing), {
        code: 'revoked',
        status: 401,
        iss: id.issuer,
      });
    const res = challengeResponse('unavailable', {
      realm: '',
      description: 'Revocation status is unavailable',
      retryAfter: 1,
    });
    return observe.refuse(cx, withTiming(res, id.timing), {
      code: 'revocation_unavailable',
      status: 503,
      iss: id.issuer,
    });
  };
  return verdict;
}

/**
 * Per isolate, once: the view, the stage over it and the admin endpoint, from the
 * config and the Worker's bindings (a missing binding or secret is a ConfigError).
 *
 * @example
 * const r = buildRevocation(config.revocation, env, Date.now, config.realm, config);
 * stages.push(r.stage);
 */
export function buildRevocation(
  config: RevocationConfig,
  env: Record<string, unknown>,
  now: () => number,
  realm: string,
  // The guard's issuers (every `iss` spelling of one entry is one issuer) and clockTolerance (how long past exp a token
  // still passes).
  guard: { issuers: readonly { issuer: readonly string[] }[]; clockTolerance: number } = {
    issuers: [],
    clockTolerance: 0,
  },
): { view: RevocationView; stage: AfterVerifyStage; admin: (request: Request) => Promise<Response> } {
  const secret = adminSecret(env, config, 'revocation.secretBinding');
  let source: RevocationSource;
  let writer: RevocationWriter;
  if (config.store === 'isolate') {
    const store = isolateRevocationStore({ now });
    source = store;
    writer = isolateRevocationWriter(store);
  } else {
    const ns = env[config.store.durableObject] as Partial<RevocationNamespace> | undefined;
    if (typeof ns?.idFromName !== 'function' || typeof ns.get !== 'function')
      throw new ConfigError('revocation.store.durableObject', 'the Durable Object binding is missing');
    source = durableObjectRevocationSource(ns as RevocationNamespace, REVOCATION_OBJECT_NAME, now);
    writer = durableObjectRevocationWriter(ns as RevocationNamespace, REVOCATION_OBJECT_NAME, ADMIN_TIMEOUT_MS, now);
  }
  const entryOf = new Map<string, string>();
  for (const is of guard.issuers) for (const name of is.issuer) entryOf.set(name, is.issuer[0]!);
  const issuerOf = (iss: string) => entryOf.get(iss) ?? iss;
  const view = new RevocationView(source, {
    required: true,
    refreshMs: config.refreshMs,
    timeoutMs: config.timeoutMs,
    maxStaleMs: config.maxStaleMs,
    now,
    issuerOf,
  });
  return {
    view,
    stage: revocationStage(view, realm),
    admin: (request) => revocationAdmin(request, { secret, writer, view, now, graceS: guard.clockTolerance }),
  };
}
