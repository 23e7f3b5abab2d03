// The default Worker's stages: every one, imported statically. Measured (issue 23,
// docs/decisions/0006-guard-stages-imported-statically.md): workerd compiles
// every uploaded byte at startup whether or not it is imported, and a bundled `import()`
// makes esbuild wrap the imported module and its whole dependency closure (the library
// included) in lazy-init closures that the entry then runs at top level: dearer than
// evaluating the features' own top levels, which only declare functions and classes.
// A feature still runs only when buildParts asks for it (registry.ts).

import { admin } from './admin.js';
import { cors } from './cors.js';
import { dpop } from './dpop.js';
import { introspection } from './introspection.js';
import { forwardPayload } from './forward-payload.js';
import { keySets } from './key-sets.js';
import { kvTiers } from './kv-tiers.js';
import { mtls } from './mtls.js';
import { originAssertion } from './origin-assertion.js';
import { byName, givenFeatures, type FeatureSource, type GuardStage } from './registry.js';
import { remoteKeys } from './remote-keys.js';
import { resource } from './resource.js';
import { revocation } from './revocation.js';
import { rules } from './rules.js';
import { serviceOrigin } from './service-origin.js';
import { tokenSources } from './token-sources.js';

/**
 * Every stage, for a guard whose config is read at run time: the default Worker's
 * (`createGuard(config, { stages: defaultStages })`).
 *
 * @example
 * import { createGuard, defaultStages } from 'edgejwt/worker';
 * const guard = createGuard(config, { stages: defaultStages });
 */
export const defaultStages: readonly GuardStage[] = [
  kvTiers,
  remoteKeys,
  originAssertion,
  dpop,
  mtls,
  revocation,
  keySets,
  cors,
  admin,
  rules,
  tokenSources,
  serviceOrigin,
  forwardPayload,
  resource,
  introspection,
];

/**
 * Every feature, reached by name (tests and startGuard).
 *
 * @example
 * const parts = await buildParts(parseConfig(raw), env, {}, allFeatures);
 */
export const allFeatures: FeatureSource = /* @__PURE__ */ givenFeatures(/* @__PURE__ */ byName(defaultStages));
