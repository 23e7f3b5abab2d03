// `edgejwt build-guard`: the entry module for one checked GUARD_CONFIG. It holds the
// parsed config as a literal and the edgejwt version that wrote it, and imports only the
// features that config uses, so the deployed isolate neither parses nor checks the config
// (it builds each issuer's policy from the config: src/worker/issuer-settings.ts) and never
// loads what it does not use (src/worker/compiled.ts). The config is in the uploaded script: it names secret
// bindings but holds no secret (keys in it are public keys). The deployed guard builds
// each key at its first token, so `edgejwt build-guard` writes an entry only after
// checkConfigFile has built every inline key (./inline-keys.ts): a broken key fails
// the build, not a request.

import { configLiteral } from '../worker/config-literal.js';
import { configSource } from '../worker/config-source.js';
import { parseConfig } from '../worker/config.js';
import { featuresFor, type FeatureName } from '../worker/features/registry.js';
import { PACKAGE_VERSION } from '../worker/package-version.js';
import { assertPoliciesAgree } from './policy-agreement.js';

/** The package subpath the entry imports by default. */
export const COMPILED_MODULE = 'edgejwt/worker/compiled';

export interface GuardEntry {
  /** The module text. */
  code: string;
  /** The features it imports. */
  features: FeatureName[];
}

/**
 * The entry module for `raw` (GUARD_CONFIG as text or object); throws ConfigError as the guard would.
 * `from`: the specifier of edgejwt/worker/compiled (a path to src/worker/compiled.ts inside this repository).
 *
 * @example
 * writeFileSync('guard-entry.js', guardEntry(readFileSync('guard-config.json', 'utf8')).code);
 */
export function guardEntry(raw: unknown, from: string = COMPILED_MODULE): GuardEntry {
  const config = parseConfig(raw);
  // The guard's own policy derivation must say what the library's option code says (./policy-agreement.ts).
  assertPoliciesAgree(config);
  const features = featuresFor(config);
  const names = features.join(', ');
  // workerd binds a Durable Object by the class the entry exports: only the ones this config binds.
  const objects = [
    ...(config.dpop?.replay.kind === 'durableObject' ? ['DpopReplayShard'] : []),
    ...(config.revocation !== undefined && typeof config.revocation.store === 'object' ? ['RevocationList'] : []),
  ];
  const code = [
    '// Written by `edgejwt build-guard` from GUARD_CONFIG; build it again when GUARD_CONFIG changes or edgejwt',
    '// is upgraded (a deployment whose GUARD_CONFIG or edgejwt differs from this one refuses every request).',
    `import { compiledWorker${features.length === 0 ? '' : `, ${names}`} } from ${JSON.stringify(from)};`,
    '',
    `const config = ${configLiteral(config)};`,
    '',
    `export default compiledWorker({ config, source: ${JSON.stringify(configSource(raw) ?? '')}, version: ${JSON.stringify(PACKAGE_VERSION)} }, { ${names} });`,
    ...(objects.length === 0 ? [] : [`export { ${objects.join(', ')} } from ${JSON.stringify(from)};`]),
    '',
  ].join('\n');
  return { code, features };
}
