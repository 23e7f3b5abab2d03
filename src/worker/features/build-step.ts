// Each optional feature brings its own part of the guard's build: buildParts (build.ts)
// asks for the features the config uses, in the order below, and runs each one's `build`.
// The order is the order the settings are checked in: the first missing feature or unusable
// setting is the ConfigError a guard fails closed with.

import type { GuardConfig } from '../config.js';
import { authorizationOnly, type BuildStep, type FeatureBuild, type FeatureName, type FeatureSource } from './registry.js';

// Each step: the feature, and the setting that needs it when the config uses it (false when not).
// A step without a function is used when the config sets the setting of the feature's own name.
type Step = readonly [FeatureName, ((config: GuardConfig) => string | false)?];
const STEPS: readonly Step[] = [
  ['admin'],
  ['resource'],
  ['serviceOrigin', (c) => typeof c.origin === 'object' && 'origin.service'],
  ['tokenSources', (c) => !authorizationOnly(c.tokenSources) && 'tokenSources'],
  ['forwardPayload'],
  ['originAssertion'],
  ['dpop'],
  [
    'introspection',
    (c) => {
      const i = c.issuers.findIndex((is) => is.introspection !== undefined);
      return i >= 0 && `issuers[${i}].introspection`;
    },
  ],
  [
    'mtls',
    (c) => {
      const i = c.issuers.findIndex((is) => is.mtls !== undefined);
      return i >= 0 && `issuers[${i}].mtls`;
    },
  ],
  ['revocation'],
  ['cors'],
  ['rules', (c) => (c.rules.length > 0 ? 'rules' : c.publicPaths.length > 0 && 'publicPaths')],
];

/**
 * The features `config` uses after its issuers are built, in build order, each with the setting that needs it.
 *
 * @example
 * buildSteps(parseConfig({ ...raw, cors: { origins: ['https://app.example'] } })); // [['cors', 'cors']]
 */
export function buildSteps(config: GuardConfig): [FeatureName, string][] {
  const out: [FeatureName, string][] = [];
  for (const [name, setting] of STEPS) {
    const s = setting === undefined ? (config as unknown as Record<string, unknown>)[name] !== undefined && name : setting(config);
    if (s !== false) out.push([name, s]);
  }
  return out;
}

/**
 * Run the build step of every feature the config uses, one after the other, in buildSteps' order.
 *
 * @example
 * await runBuildSteps(b, features); // b.pieces.cors is set when the config sets cors
 */
export async function runBuildSteps(b: FeatureBuild, features: FeatureSource): Promise<void> {
  for (const [name, setting] of buildSteps(b.config)) await ((await features(name, setting)) as BuildStep).build(b);
}
