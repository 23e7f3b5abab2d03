// What checking a DPoP proof (RFC 9449) costs next to the access token it comes with
// (issue 25). Per proof algorithm (ES256, EdDSA, RS256-2048, PS256-2048), warm, in one
// interleaved run: the access-token verify of the same algorithm (createVerifier,
// cache: false, so every call verifies), verifyDpopProof on a proof whose key is
// already in the per-isolate import cache (the steady state of one client sending
// many requests: the signature, typ/alg/jwk rules, htm, htu, iat window, jti and
// ath against the token, hashed per call), and jose's jwtVerify of the same proof
// with EmbeddedJWK (a peer: it imports the header's key on every call and checks
// typ, alg and the signature only, not htm, htu, iat window or ath).
// Ratios are per row against the access-token verify of that algorithm.
// Run: npm run build && node bench/verify/dpop-proof.ts   (BENCH_SMOKE=1: seconds)
import * as jose from 'jose';
import { createVerifier, verifyDpopProof, type DpopAlgorithm } from '../../dist/index.js';
import { compareAsync, formatTable, smoke, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { material, type Variant } from '../lib/material.ts';

const env = environment(['jose']);
printEnvironment(env);

const VARIANTS: Variant[] = [
  { label: 'ES256', alg: 'ES256' },
  { label: 'EdDSA', alg: 'EdDSA' },
  { label: 'RS256-2048', alg: 'RS256', bits: 2048 },
  { label: 'PS256-2048', alg: 'PS256', bits: 2048 },
];
const URL_ = 'https://api.example.com/orders/42';
const NOW = Math.floor(Date.now() / 1000);
const currentDate = new Date(NOW * 1000);
// A fresh copy each call, so no cache keyed by the string's identity can answer.
const fresh = (t: string) => (' ' + t).slice(1);

const results: Record<string, unknown> = { env, url: URL_ };
const summary: { alg: string; tokenNs: number; proofNs: number; joseNs: number }[] = [];
for (const v of smoke ? VARIANTS.slice(0, 2) : VARIANTS) {
  // The AS's key signs the access token; the client's own key (same algorithm) signs the proof.
  const as = await material(v);
  const client = await material(v);
  const token = as.token;
  const ath = jose.base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))),
  );
  const proof = await client.sign(
    { htm: 'GET', htu: URL_, iat: NOW, jti: crypto.randomUUID(), ath },
    { typ: 'dpop+jwt', alg: v.alg, jwk: { ...client.jwk, alg: undefined } },
  );
  const verifier = createVerifier({
    algorithms: [v.alg],
    jwks: { keys: [{ ...as.jwk, kid: 'k1' }] } as never,
    cache: false,
    currentDate,
  });
  const options = { method: 'GET', url: URL_, algorithms: [v.alg as DpopAlgorithm], accessToken: token, currentDate };
  // Both must pass before anything is timed (and the proof's key is then in the import cache).
  await verifier.verify(token);
  await verifyDpopProof(proof, options);
  await jose.jwtVerify(proof, jose.EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [v.alg], currentDate });
  const base = `access token verify (${v.label})`;
  const samples: Sample[] = await compareAsync([
    { name: base, fn: () => verifier.verify(fresh(token)) },
    { name: 'verifyDpopProof (key cache hit, ath)', fn: () => verifyDpopProof(fresh(proof), options) },
    {
      name: 'jose jwtVerify(proof, EmbeddedJWK)',
      fn: () => jose.jwtVerify(fresh(proof), jose.EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [v.alg], currentDate }),
    },
  ]);
  results[v.label] = samples;
  console.log('\n' + formatTable(`DPoP proof vs access token, ${v.label}`, samples, base));
  summary.push({
    alg: v.label,
    tokenNs: samples[0]!.medianNs,
    proofNs: samples[1]!.medianNs,
    joseNs: samples[2]!.medianNs,
  });
}
console.log('\n| alg | proof ÷ access token | jose proof ÷ edgejwt proof |\n|---|---:|---:|');
for (const s of summary)
  console.log(`| ${s.alg} | ${(s.proofNs / s.tokenNs).toFixed(2)} | ${(s.joseNs / s.proofNs).toFixed(2)} |`);
results.summary = summary;
console.log(`wrote ${writeResults('dpop-proof', results)}`);
