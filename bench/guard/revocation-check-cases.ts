// The revocation stage's per-request work on its own (bundled for Node by
// bench/guard/revocation-check.ts): the runner's identity hooks on a verified identity
// without the stage, with it and nothing revoked, and with 10,000 entries.
import type { AfterVerifyStage, Identity, StageHooks } from '../../src/worker/stage.ts';
import { Guard } from '../../src/worker/runner.ts';
import { RequestContext } from '../../src/worker/context.ts';
import { Counters } from '../../src/worker/counters.ts';
import { IssuerIndex } from '../../src/worker/issuer-index.ts';
import { Observer } from '../../src/worker/stages/observe/observe.ts';
import { RejectionLog } from '../../src/worker/stages/observe/rejection-log.ts';
import { requestTarget } from '../../src/worker/request-url.ts';
import { revocationStage } from '../../src/worker/stages/revocation/revocation-stage.ts';
import { isolateRevocationStore } from '../../src/worker/revocation/source.ts';
import { RevocationView } from '../../src/worker/revocation/view.ts';

const ISS = 'https://issuer.bench.invalid';
export const ENTRIES = 10_000;

export async function cases(): Promise<{ name: string; fn: () => unknown }[]> {
  const nowS = Math.floor(Date.now() / 1000);
  const payload = {
    iss: ISS,
    aud: 'api',
    sub: 'user-1',
    scope: 'read write',
    jti: 'bench-token-1',
    iat: nowS,
    exp: nowS + 3600,
  };
  const identity: Identity = {
    ok: true,
    anonymous: false,
    payload,
    header: () => ({ alg: 'HS256' }),
    issuer: ISS,
    timing: 'edgejwt;desc="l1";dur=0.000',
  };
  const observe = new Observer(
    {
      counters: new Counters(() => undefined, 1),
      rejections: new RejectionLog(
        () => undefined,
        () => 1,
      ),
      analytics: undefined,
    },
    new IssuerIndex([]),
  );
  const request = new Request('https://api.bench.invalid/api/orders');
  const cx = new RequestContext(request, requestTarget(request.url), { waitUntil: () => undefined });
  // A current copy (what all but one request per refreshMs per isolate see); the refresh itself is
  // a Durable Object round trip, measured by bench/guard/do-round-trips.ts.
  const empty = new RevocationView(isolateRevocationStore(), {
    required: true,
    refreshMs: 600_000,
    maxStaleMs: 600_000,
  });
  const store = isolateRevocationStore();
  for (let i = 0; i < ENTRIES; i++)
    await store.revoke(
      i % 2 === 0
        ? { jti: `revoked-${i}`, exp: nowS + 86_400 }
        : { iss: ISS, sub: `user-revoked-${i}`, issuedBefore: nowS, exp: nowS + 86_400 },
    );
  const full = new RevocationView(store, { required: true, refreshMs: 600_000, maxStaleMs: 600_000 });
  for (const v of [empty, full])
    if ((await v.check(payload)) !== 'ok') throw new Error('the bench token is not meant to be revoked');
  const none: AfterVerifyStage[] = [];
  const withEmpty = [revocationStage(empty, 'edgejwt')];
  const withFull = [revocationStage(full, 'edgejwt')];
  // The chain's identity hooks as the runner calls them, after a stage that decided the identity.
  const guardOf = (stages: AfterVerifyStage[]) => {
    const checks = stages.map((c): StageHooks => ({ identity: (x, id) => c(x, id, observe) }));
    const parts = { counters: new Counters(() => undefined, 1), now: () => 1, log: () => undefined };
    return new Guard(parts as never, [{ request: () => identity }, ...checks]);
  };
  const guards = new Map<AfterVerifyStage[], Guard>([none, withEmpty, withFull].map((s) => [s, guardOf(s)]));
  const run = (stages: AfterVerifyStage[]) => {
    const out = guards.get(stages)!.decide(cx);
    if (out instanceof Promise || !out.ok) throw new Error('bench: a sync pass was expected');
    return out;
  };
  return [
    { name: 'after-verify chain, no revocation stage', fn: () => run(none) },
    { name: 'after-verify chain, revocation stage, nothing revoked', fn: () => run(withEmpty) },
    {
      name: `after-verify chain, revocation stage, ${ENTRIES.toLocaleString('en-US')} entries`,
      fn: () => run(withFull),
    },
  ];
}
