// What `edgejwt build-guard` hands compiledWorker for a raw GUARD_CONFIG (src/cli/guard-entry.ts
// writes the same three values as literals): the checked config, the source text the drift
// check compares GUARD_CONFIG with, and the edgejwt version that wrote the entry.
import type { CompiledConfig } from '../../src/worker/compiled.js';
import { configSource } from '../../src/worker/config-source.js';
import { parseConfig } from '../../src/worker/config.js';
import { PACKAGE_VERSION } from '../../src/worker/package-version.js';

export function compileEntry(raw: unknown): CompiledConfig {
  return { config: parseConfig(raw), source: configSource(raw)!, version: PACKAGE_VERSION };
}
