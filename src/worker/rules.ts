// Authorisation after a token verified: the scopes and claim values every
// matching rule asks for (which scopes a token grants: src/bearer/scopes.ts).

import { grantedScopes } from '../bearer/scopes.js';
import type { JWTPayload } from '../claims.js';
import type { RuleConfig } from './config.js';

export interface RuleMiss {
  /** Every scope the matched rules need (for the `scope` attribute of the 403). */
  scopes: string[];
  description: string;
}

/** undefined when every rule holds; otherwise what is missing. */
export function checkRules(rules: readonly RuleConfig[], payload: JWTPayload): RuleMiss | undefined {
  if (rules.length === 0) return undefined;
  const granted = grantedScopes(payload);
  const needed = [...new Set(rules.flatMap((r) => r.scopes))];
  if (needed.some((s) => !granted.has(s))) return { scopes: needed, description: 'The access token lacks a required scope' };
  for (const r of rules) {
    for (const [name, want] of Object.entries(r.claims)) {
      const have = payload[name];
      // An array claim (roles, groups) satisfies the rule when it contains the value.
      const ok = Array.isArray(have) ? have.includes(want) : have === want;
      if (!ok) return { scopes: needed, description: 'The access token lacks a required claim' };
    }
  }
  return undefined;
}
