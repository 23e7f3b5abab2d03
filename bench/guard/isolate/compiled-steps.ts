// The compiled guard (src/worker/compiled.ts; keep the two composed alike) instrumented for bench/guard/cold-steps.ts:
// a stand-in for `edgejwt/worker/compiled` that the bench's entry (written by the same
// entry writer) imports instead, so the entry, its config literal and its features are
// the real ones. compiledWorker is composed as compiled.ts composes it, with clock marks
// around each step of a fresh isolate's first request, returned in x-marks as
// `name=ms` pairs in the order they happened (ms since the bundle began evaluating).
// With the binding BENCH_SPLIT = '1', buildParts is first taken apart (its pieces, each issuer alone),
// then run whole (warm by then), as edgejwt-steps.ts does for the library.
import { T0 } from './mark.ts';
import { buildParts, type GuardEnv } from '../../../src/worker/build.ts';
import type { GuardConfig } from '../../../src/worker/config.ts';
import { configSource } from '../../../src/worker/config-source.ts';
import { workerGuard } from '../../../src/worker/embed.ts';
import { givenFeatures, hmacOnly, type GuardFeatures } from '../../../src/worker/features/registry.ts';
import { Guard } from '../../../src/worker/guard.ts';
import { Counters } from '../../../src/worker/counters.ts';
import { cacheKeyBytes } from '../../../src/worker/cache-key.ts';
import { selfTest, usesWasmCore } from '../../../src/worker/self-test.ts';
import { twoStepVerifierFrom } from '../../../src/verify-path.ts';
import { issuerPolicy } from '../../../src/worker/issuer-settings.ts';
import { policyFrom } from '../../../src/policy-from.ts';
import { hmacSpec } from '../../../src/alg-base.ts';
import { secretEntry } from '../../../src/keys/secret.ts';
import { singleKey } from '../../../src/keys/single.ts';
import { decodeSegment } from '../../../src/b64.ts';

export * from '../../../src/worker/compiled.ts';

const marks: string[] = [];
const mark = (name: string): void => void marks.push(`${name}=${Date.now() - T0}`);

/** buildParts' pieces one by one, each marked: counters, the CACHE_KEY read, the keySets lookup, each issuer's verifier alone. */
async function pieces(config: GuardConfig, env: GuardEnv, features: GuardFeatures): Promise<void> {
  new Counters(() => undefined, Date.now(), () => Date.now());
  cacheKeyBytes(env.CACHE_KEY);
  mark('split: counters + CACHE_KEY');
  const source = givenFeatures(features);
  const keySets = hmacOnly(config) ? undefined : await source('keySets', 'issuers');
  mark('split: feature lookups');
  for (const is of config.issuers) {
    const src = is.source;
    let source: Parameters<typeof policyFrom>[2];
    if (src.kind === 'secret') {
      const s = String(env[src.binding]).trim();
      source = (specs) => singleKey(secretEntry(decodeSegment(s, 0, s.length)!), specs);
    } else if (src.kind === 'jwks') {
      // As build.ts: the inline set handed over unread (read at its first token).
      const set = keySets!.createLocalJWKSet(src.jwks as never);
      source = () => set;
    } else continue;
    // As build.ts: the policy made from the config entry, no option code.
    twoStepVerifierFrom([policyFrom(issuerPolicy(is, config.clockTolerance), keySets?.algSpec ?? hmacSpec, source)]);
    mark(`split: issuer ${is.algorithms.join('/')} alone`);
  }
}

/** compiledWorker as compiled.ts composes it, marked. */
export function compiledWorker(compiled: { config: GuardConfig; source: string; version: string }, features: GuardFeatures): { fetch(r: Request, env: GuardEnv, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response> } {
  mark('bundle evaluated');
  const source = givenFeatures(features);
  const algorithms = compiled.config.issuers.flatMap((is) => is.algorithms);
  const start = async (env: GuardEnv, deps: Parameters<typeof buildParts>[2] | undefined): Promise<Guard> => {
    mark('start called');
    if (env.GUARD_CONFIG !== undefined && env.GUARD_CONFIG !== compiled.source && configSource(env.GUARD_CONFIG) !== compiled.source) throw new Error('GUARD_CONFIG differs');
    mark('GUARD_CONFIG check');
    if (env.BENCH_SPLIT === '1') {
      await pieces(compiled.config, env, features);
      // buildParts once more before the one the guard keeps: what it costs once its code has run.
      await buildParts(compiled.config, env, deps ?? {}, source);
      mark('split: buildParts once before');
    }
    const parts = await buildParts(compiled.config, env, deps ?? {}, source);
    mark('buildParts');
    const inner = parts.verifier;
    let opened = false;
    let verified = false;
    parts.verifier = {
      open(token) {
        if (!opened) mark('request path before verify');
        const o = inner.open(token);
        if (!opened) mark('verify: open');
        opened = true;
        return o;
      },
      verifyOpened(o) {
        const r = inner.verifyOpened(o);
        const done = () => {
          if (!verified) mark('verify: verifyOpened');
          verified = true;
        };
        if (r instanceof Promise) return r.then((x) => (done(), x));
        done();
        return r;
      },
    };
    const guard = new Guard(parts);
    mark('new Guard');
    return guard;
  };
  const check = usesWasmCore(algorithms) ? () => (mark('self-test called'), selfTest(algorithms).then(() => mark('self-test'))) : () => Promise.resolve();
  const guard = workerGuard(start, undefined, check);
  void import('cloudflare:workers').then(
    (m: { env: Record<string, unknown> }) => {
      mark('cloudflare:workers imported');
      guard.warm(m.env);
    },
    () => undefined,
  );
  let first = true;
  return {
    async fetch(request, env, ctx) {
      if (!first) return guard.fetch(request, env, ctx);
      first = false;
      mark('fetch called');
      const res = await guard.fetch(request, env, ctx);
      mark('forward/echo + response');
      const out = new Response(res.body, res);
      out.headers.set('x-marks', marks.join(','));
      return out;
    },
  };
}
