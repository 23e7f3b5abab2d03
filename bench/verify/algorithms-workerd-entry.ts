// Cases run inside workerd for bench/verify/algorithms-workerd.ts: every variant of the
// Node table with the peers that run there (jose, hono, @tsndr, bare crypto.subtle; for
// HS256 and EdDSA the Rust wasm-bindgen peer when built), plus the CPU side of the guard's
// KV verify cache (key hash, unseal, parse; KV itself replaced by memory) that decides
// whether a KV hit can save CPU over a verify.
import { createVerifier, type Algorithm } from '../../src/index.ts';
import { KvVerifyCache } from '../../src/worker/verify-cache.ts';
import { sealerFromSecret } from '../../src/worker/seal.ts';
import { Counters } from '../../src/worker/counters.ts';
import type { WorkerCase } from '../lib/workerd.ts';
import { material, benchVariants, b64u } from '../lib/material.ts';
import { smoke } from '../lib/harness.ts';
import { webPeers } from '../lib/web-peers.ts';
import { PAYLOAD } from '../lib/signing-input.ts';
import { rustCases } from '../peers/rust-cases.ts';
import { rustPeer } from '#bench-rust-peer';

async function l2CpuCase(token: string): Promise<WorkerCase> {
  const store = new Map<string, string>();
  const kv = {
    get: async (k: string) => store.get(k) ?? null,
    put: async (k: string, v: string) => void store.set(k, v),
  };
  const sealer = (await sealerFromSecret(b64u(new Uint8Array(32).fill(7))))!;
  const l2 = new KvVerifyCache({
    kv,
    sealer,
    policyId: 'bench',
    maxTtl: 300,
    timeoutMs: 100,
    counters: new Counters(() => {}, Date.now()),
  });
  await l2.put(token, PAYLOAD, Date.now() / 1000);
  if ((await l2.get(token)) === undefined) throw new Error('L2 CPU case: no hit');
  return { name: 'guard L2 hit, CPU only (hash + unseal + parse)', fn: () => l2.get(token), async: true };
}

export default async function setup(): Promise<WorkerCase[]> {
  const cases: WorkerCase[] = [];
  const rust = rustPeer();
  for (const v of benchVariants(smoke)) {
    const m = await material(v);
    const ours = createVerifier({ algorithms: [v.alg as Algorithm], key: (m.secret ?? m.jwk) as never, cache: false });
    await ours.verify(m.token);
    // The Wasm algorithms verify synchronously; the WebCrypto ones only async.
    const wasm = v.alg.startsWith('HS') || v.alg === 'EdDSA';
    cases.push(
      wasm
        ? { name: `${v.label} edgejwt verifySync`, fn: () => ours.verifySync(m.token) }
        : { name: `${v.label} edgejwt verify`, fn: () => ours.verify(m.token), async: true },
    );
    for (const p of await webPeers(m)) cases.push({ name: `${v.label} ${p.name}`, fn: p.fn, async: true });
    if (rust) for (const c of rustCases(rust, m)) cases.push({ name: `${v.label} ${c.name}`, fn: c.fn });
    if (v.alg === 'HS256') cases.push(await l2CpuCase(m.token));
  }
  return cases;
}
