// Cases run inside workerd with the guard's Durable Objects bound locally
// (bench/guard/do-round-trips.ts): one round trip each through the binding, the
// way the revocation stage, its admin endpoint and the DPoP replay store make them.
import { env } from 'cloudflare:workers';
import { durableObjectDpopReplayStore, type ReplayNamespace } from '../../src/worker/dpop-replay/store.ts';
import {
  durableObjectRevocationSource,
  RevocationView,
  type RevocationNamespace,
} from '../../src/worker/revocation/index.ts';
import { durableObjectRevocationWriter } from '../../src/worker/revocation/writer.ts';
import type { WorkerCase } from '../lib/workerd.ts';

export { RevocationList } from '../../src/worker/revocation/list-object.ts';
export { DpopReplayShard } from '../../src/worker/dpop-replay/shard-object.ts';

const b64u = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const nowS = () => Math.floor(Date.now() / 1000);

export default async function setup(): Promise<WorkerCase[]> {
  const bindings = env as unknown as { REVOCATIONS: RevocationNamespace; DPOP_REPLAY: ReplayNamespace };
  const writer = durableObjectRevocationWriter(bindings.REVOCATIONS, 'revocations', 5_000);
  // A second isolate's view: refreshMs 0, so every check asks the object for the delta.
  const second = new RevocationView(durableObjectRevocationSource(bindings.REVOCATIONS, 'revocations'), {
    required: true,
    refreshMs: 0,
    timeoutMs: 2_000,
  });
  const replay = durableObjectDpopReplayStore(bindings.DPOP_REPLAY, { shardChars: 2, timeoutMs: 2_000 });
  let n = 0;
  // Entries lapse within seconds (the list holds at most 10,000 live ones).
  const revokeAndSee = async () => {
    const jti = `bench-${n++}`;
    const added = await writer.revoke({ jti, exp: nowS() + 3 });
    if (added === 'full') throw new Error('revocation list full');
    if ((await second.check({ jti })) !== 'revoked') throw new Error('second view did not see the revocation');
  };
  const refreshOnly = async () => {
    if ((await second.check({ jti: 'never-revoked' })) !== 'ok') throw new Error('unexpected verdict');
  };
  // One warm shard (keys share their first two characters), a fresh key each call.
  const replayOnce = async () => {
    const key = `AA${b64u(crypto.getRandomValues(new Uint8Array(32))).slice(2)}`;
    if (!(await replay.checkAndRemember(key, nowS() + 65))) throw new Error('fresh key reported as replayed');
  };
  await revokeAndSee();
  await replayOnce();
  return [
    { name: 'revocation POST (admin writer) + a second view refreshes and sees it', fn: revokeAndSee, async: true },
    { name: 'revocation view refresh alone (GET /since, nothing new)', fn: refreshOnly, async: true },
    { name: 'DPoP replay checkAndRemember (one warm shard)', fn: replayOnce, async: true },
  ];
}
