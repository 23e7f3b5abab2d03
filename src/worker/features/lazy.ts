// The default Worker's way to its features: a dynamic import of the one the config
// uses, at build time of the guard (so an isolate never evaluates the others, and a
// bundler that splits leaves them out of the main module). See registry.ts.

import type { FeatureName, FeatureSource, GuardFeatures } from './registry.js';

const LOADERS: { [K in FeatureName]: () => Promise<NonNullable<GuardFeatures[K]>> } = {
  kvTiers: () => import('./kv-tiers.js').then((m) => m.kvTiers),
  remoteKeys: () => import('./remote-keys.js').then((m) => m.remoteKeys),
  originAssertion: () => import('./origin-assertion.js').then((m) => m.originAssertion),
  dpop: () => import('./dpop.js').then((m) => m.dpop),
  mtls: () => import('./mtls.js').then((m) => m.mtls),
  revocation: () => import('./revocation.js').then((m) => m.revocation),
  keySets: () => import('./key-sets.js').then((m) => m.keySets),
  cors: () => import('./cors.js').then((m) => m.cors),
  admin: () => import('./admin.js').then((m) => m.admin),
  rules: () => import('./rules.js').then((m) => m.rules),
};

/**
 * Every feature, each imported when first asked for.
 *
 * @example
 * const parts = await buildParts(parseConfig(raw), env, {}, lazyFeatures);
 */
export const lazyFeatures: FeatureSource = (name) => LOADERS[name]();
