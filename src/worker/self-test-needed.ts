// Whether GUARD_CONFIG, before it is parsed, can skip the self-test: only when every
// issuer names its algorithms and none of them runs on the Wasm core (HS*, EdDSA), the
// part of the library the self-test checks. Anything unexpected keeps the self-test:
// this reads the deployer's config early, it never decides what the parser accepts.

import type { GuardEnv } from './parts.js';
import type { GuardConfigSource } from './embed.js';
import { selfTest, usesWasmCore } from './self-test.js';

/**
 * The self-test a guard's config source needs: none for RS/PS/ES issuers only; else
 * selfTest over the algorithms its issuers name, and every HMAC hash's answer when the
 * config cannot be read here (a function of the env, an unexpected shape).
 *
 * @example
 * await selfTestFor(undefined, env); // reads env.GUARD_CONFIG
 */
export function selfTestFor(config: GuardConfigSource | undefined, env: GuardEnv): Promise<void> {
  const algorithms =
    typeof config === 'function' ? undefined : namedAlgorithms(config === undefined ? env.GUARD_CONFIG : config);
  if (algorithms === undefined) return selfTest(['HS384', 'HS512']);
  return usesWasmCore(algorithms) ? selfTest(algorithms) : Promise.resolve();
}

/** Every algorithm the issuers of `raw` (a GUARD_CONFIG value) list, or undefined when it cannot be read so. */
function namedAlgorithms(raw: unknown): string[] | undefined {
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  const issuers = typeof v === 'object' && v !== null ? (v as { issuers?: unknown }).issuers : undefined;
  if (!Array.isArray(issuers) || issuers.length === 0) return undefined;
  const algorithms: string[] = [];
  for (const is of issuers) {
    const a: unknown = typeof is === 'object' && is !== null ? (is as { algorithms?: unknown }).algorithms : undefined;
    const list = typeof a === 'string' ? [a] : a;
    if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string')) return undefined;
    algorithms.push(...(list as string[]));
  }
  return algorithms;
}
