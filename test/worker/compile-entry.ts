// What `edgejwt build-guard` hands compiledWorker for a raw GUARD_CONFIG (src/cli/guard-entry.ts
// writes the same three values as literals): the checked config, its issuers' checked
// policies and the source text the drift check compares GUARD_CONFIG with.
import type { CompiledConfig } from '../../src/worker/compiled.js';
import { configSource } from '../../src/worker/config-source.js';
import { parseConfig } from '../../src/worker/config.js';
import { checkedPolicies } from '../../src/worker/policy-literal.js';

export function compileEntry(raw: unknown): CompiledConfig {
  const config = parseConfig(raw);
  return { config, policies: checkedPolicies(config), source: configSource(raw)! };
}
