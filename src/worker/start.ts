// The guard from GUARD_CONFIG as text or an object: parse and check it (config-core.ts), check
// that it was given every stage the config uses (stages/needs.ts), build the shared parts
// (build.ts), then each stage of its chain in order (stages/index.ts). `createGuard`
// (edgejwt/worker) and the default Worker start here.

import { buildParts, type GuardDeps, type GuardEnv } from './build.js';
import { parseConfigWith } from './config-core.js';
import { stageNotGiven } from './config-error.js';
import { embeddedGuard, rawConfigOf, type EmbeddedGuard, type GuardConfigSource } from './embed.js';
import { IssuerIndex } from './issuer-index.js';
import { Guard } from './runner.js';
import { selfTestFor } from './self-test-needed.js';
import type { GuardStage, StageBuild, StageHooks, StageUse } from './stage.js';
import { coreStages } from './stages/core.js';
import { neededStages } from './stages/needs.js';
import { Observer } from './stages/observe/observe.js';

/**
 * What `createGuard` takes besides the config: the stages the config may use, and the deps tests swap.
 *
 * @example
 * const options: GuardOptions = { stages: [keySets, remoteKeys] };
 */
export interface GuardOptions extends GuardDeps {
  /** The stages this guard may use (default none: a config that needs one fails to start naming the setting). */
  stages?: readonly GuardStage[];
}

/**
 * Build a guard from the environment with the stages it is given (throws ConfigError on a bad configuration);
 * `rawConfig` replaces GUARD_CONFIG. For code that keeps the Guard itself (tests, benches).
 *
 * @example
 * const guard = await startGuard(env, { log: (line) => console.log(line) }, undefined, defaultStages);
 * const res = await guard.handle(request, ctx);
 */
export async function startGuard(
  env: GuardEnv,
  deps: GuardDeps,
  rawConfig: unknown,
  stages: readonly GuardStage[],
): Promise<Guard> {
  // Each optional section by the parser of the stage that runs it (config-core.ts).
  const chain = chainOf(stages);
  const config = parseConfigWith(rawConfig === undefined ? env.GUARD_CONFIG : rawConfig, chain);
  const use = stageLookup(stages);
  for (const [name, setting] of neededStages(config, env)) use(name, setting);
  const parts = await buildParts(config, env, deps, use);
  const issuers = new IssuerIndex(config.issuers);
  const shared = new Map<string, unknown>();
  const b: StageBuild = {
    config,
    env,
    parts,
    issuers,
    observe: new Observer(parts, issuers),
    use,
    once: <T>(key: string, make: () => T): T => {
      if (!shared.has(key)) shared.set(key, make());
      return shared.get(key) as T;
    },
  };
  const hooks: StageHooks[] = [];
  for (const stage of chain) {
    const h = await stage.build(b);
    if (h !== undefined) hooks.push(h);
  }
  return new Guard(parts, hooks);
}

/**
 * The chain a guard given `stages` runs: the core stages and the given ones, by their `order`
 * (defaultStages' order); a stage without one after them, in the order given.
 *
 * @example
 * chainOf([...defaultStages, headerEcho]); // every stage, headerEcho last
 */
export function chainOf(stages: readonly GuardStage[]): GuardStage[] {
  const all = [...new Set([...coreStages, ...stages])];
  // Array.prototype.sort is stable: stages of one order (or none) keep the order given.
  return all.sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || 0);
}

/** A lookup of the given stages by name (a later one of the same name replaces an earlier one). */
export function stageLookup(stages: readonly GuardStage[]): StageUse {
  const byName = new Map<string, GuardStage>();
  for (const s of stages) byName.set(s.name, s);
  return <T extends GuardStage>(name: string, setting: string): T => {
    const s = byName.get(name);
    if (s === undefined) throw stageNotGiven(setting, name);
    return s as T;
  };
}

/**
 * Build the guard for a Worker from the stages you import: only those are bundled, and a config that
 * uses a stage it was not given fails to start (a 500 naming the setting). Without `config`,
 * GUARD_CONFIG is read from the env. One guard is built per env object (per isolate) and reused.
 * `defaultStages` gives every stage, for a config read at run time.
 * @example
 * import { createGuard, keySets, remoteKeys } from 'edgejwt/worker';
 * const issuer = { issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'] };
 * const guard = createGuard(
 *   { issuers: [{ ...issuer, jwksUrl: 'https://id.example.com/jwks' }] },
 *   { stages: [keySets, remoteKeys] },
 * );
 * export default {
 *   async fetch(request, env, ctx) {
 *     const auth = await guard.authenticate(request, env, ctx);
 *     if (!auth.ok) return auth.response;
 *     return Response.json({ hello: auth.payload?.sub ?? 'anonymous' });
 *   },
 * };
 */
export function createGuard(config?: GuardConfigSource, options?: GuardOptions): EmbeddedGuard {
  // Only a config on the Wasm core (HS*, EdDSA) is checked: an RS/PS/ES-only guard never starts the core.
  return makeGuard(config, options, (env) => selfTestFor(config, env));
}

/** createGuard with the known-answer check `warm` runs made swappable (tests prove a failed one fails closed). */
export function makeGuard(
  config: GuardConfigSource | undefined,
  options: GuardOptions | undefined,
  check: (env: GuardEnv) => Promise<void>,
): EmbeddedGuard {
  const { stages = [], ...deps } = options ?? {};
  const withDeps = options === undefined ? undefined : deps;
  return embeddedGuard((env, d) => startGuard(env, d ?? {}, rawConfigOf(config, env), stages), withDeps, check);
}
