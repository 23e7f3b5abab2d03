// The Worker bindings a checked configuration needs, in one list: the KV namespaces,
// the service binding and the secrets (with the setting that names each).
// `edgejwt check-config` checks a Wrangler file against it. build.ts still reads each
// binding where it builds the stage that uses it (a generated list for both: issue 23).

import type { GuardConfig } from './config.js';

export interface RequiredBindings {
  /** KV namespaces, needed when CACHE_KEY is set (the tiers are off without it). */
  kv: { binding: 'JWKS_CACHE' | 'VERIFY_CACHE'; setting: string }[];
  /** The service binding of `origin: { service }`. */
  services: { binding: string; setting: string }[];
  /** Durable Object bindings, with the class each must name (exported by src/worker/index.ts). */
  durableObjects: { binding: string; className: string; setting: string }[];
  /** Secrets, by binding name: the setting that names each (CACHE_KEY: optional, turns the KV tiers on). */
  secrets: Map<string, string>;
}

/**
 * Every binding `config` reads.
 *
 * @example
 * requiredBindings(parseConfig(raw)).secrets; // Map { 'CACHE_KEY' => 'CACHE_KEY', 'HS_KEY' => 'issuers[0].secretBinding' }
 */
export function requiredBindings(config: GuardConfig): RequiredBindings {
  const kv: RequiredBindings['kv'] = [];
  if (config.cache.jwks) kv.push({ binding: 'JWKS_CACHE', setting: 'cache.jwks' });
  if (config.cache.verifyAlgorithms.size > 0) kv.push({ binding: 'VERIFY_CACHE', setting: 'cache.verify' });
  const services = typeof config.origin === 'object' ? [{ binding: config.origin.service, setting: 'origin.service' }] : [];
  const secrets = new Map<string, string>([['CACHE_KEY', 'CACHE_KEY']]);
  for (const [i, is] of config.issuers.entries()) if (is.source.kind === 'secret') secrets.set(is.source.binding, `issuers[${i}].secretBinding`);
  if (config.admin !== undefined) secrets.set(config.admin.secretBinding, 'admin.secretBinding');
  if (config.originAssertion !== undefined) secrets.set(config.originAssertion.keyBinding, 'originAssertion.keyBinding');
  const durableObjects: RequiredBindings['durableObjects'] = [];
  const dp = config.dpop;
  if (dp?.nonceSecretBinding !== undefined) secrets.set(dp.nonceSecretBinding, 'dpop.nonceSecretBinding');
  if (dp !== undefined && dp.replay.kind === 'durableObject') durableObjects.push({ binding: dp.replay.binding, className: 'DpopReplayShard', setting: 'dpop.replay.durableObject' });
  return { kv, services, durableObjects, secrets };
}
