// What a DPoP request costs the guard's CPU beside the access token's own verify:
// verifyDpopProof on one proof (ES256 and EdDSA clients; the same proof each call, so
// the imported key is reused as it is for a client's second request), the binding
// check, and the "isolate" replay store's checkAndRemember (a fresh key each call).
// Compared with verifySync of an ES256 access token, interleaved round by round.
// Not here: the Durable Object round trip (a network hop; see the worker-do tests).
// Run: npm run build && node bench/verify/dpop-proof.ts   (BENCH_SMOKE=1 for seconds)
import { compareAsync, printTable, smoke } from '../lib/harness.ts';
import { environment, printEnvironment } from '../lib/env.ts';
import { material, VARIANTS } from '../lib/material.ts';
import { checkDpopBinding, createVerifier, dpopAccessTokenHash, dpopReplayKey, verifyDpopProof } from '../../dist/index.js';
import { isolateDpopReplayStore } from '../../dist/worker/dpop-replay/index.js';

printEnvironment(environment([]));
const es = await material(VARIANTS.find((v) => v.label === 'ES256')!);
const verifier = createVerifier({ algorithms: ['ES256'], key: es.jwk as never, cache: false });
await verifier.verify(es.token);

const URL_ = 'https://api.example.com/orders';
const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
async function proofFor(alg: 'ES256' | 'EdDSA'): Promise<{ proof: string; jkt: string }> {
  const params = alg === 'ES256' ? { name: 'ECDSA', namedCurve: 'P-256' } : { name: 'Ed25519' };
  const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { key_ops: _o, ext: _e, ...jwk } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Record<string, unknown>;
  const input = `${enc({ typ: 'dpop+jwt', alg, jwk })}.${enc({ htm: 'GET', htu: URL_, iat: 1_800_000_000, jti: 'j-1', ath: dpopAccessTokenHash(es.token) })}`;
  const sig = await crypto.subtle.sign(alg === 'ES256' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'Ed25519' }, pair.privateKey, new TextEncoder().encode(input));
  const proof = `${input}.${Buffer.from(sig).toString('base64url')}`;
  const checked = await verifyDpopProof(proof, { method: 'GET', url: URL_, algorithms: [alg], accessToken: es.token, currentDate: new Date(1_800_000_010_000) });
  return { proof, jkt: checked.jkt };
}
const proofs = { ES256: await proofFor('ES256'), EdDSA: await proofFor('EdDSA') };
const options = (alg: 'ES256' | 'EdDSA') => ({ method: 'GET', url: URL_, algorithms: [alg], accessToken: es.token, currentDate: new Date(1_800_000_010_000) }) as const;

const opts = smoke ? {} : { rounds: Number(process.env.BENCH_ROUNDS ?? 30) };
const rows = await compareAsync(
  [
    { name: 'access token verify ES256 (verifySync, cache off)', fn: async () => verifier.verifySync(es.token) },
    ...(['ES256', 'EdDSA'] as const).map((alg) => ({
      name: `DPoP proof ${alg}: verifyDpopProof + checkDpopBinding`,
      fn: async () => checkDpopBinding({ cnf: { jkt: proofs[alg].jkt } }, await verifyDpopProof(proofs[alg].proof, options(alg))),
    })),
  ],
  opts,
);
printTable('DPoP proof cost next to the access token verify (Node, dist/)', rows, rows[0]!.name);

// Fresh keys, made before the timing; a new store each pass over them (a store holds at most 100,000).
const keys = Array.from({ length: 4096 }, (_, i) => dpopReplayKey('0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I', `jti-${i}`));
let store = isolateDpopReplayStore();
let n = 0;
const expiresAt = Math.floor(Date.now() / 1000) + 3000;
const [replay] = await compareAsync(
  [
    {
      name: 'isolate replay store checkAndRemember (fresh key)',
      fn: () => {
        if (n === keys.length) [store, n] = [isolateDpopReplayStore(), 0];
        return store.checkAndRemember(keys[n++]!, expiresAt);
      },
    },
  ],
  opts,
);
printTable('replay store, in this isolate', [replay!]);
