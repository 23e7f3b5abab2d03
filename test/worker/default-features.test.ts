// The default Worker reads its config at run time, so it must be able to set up every
// feature a config may use: features/all.ts gives each name of FEATURE_MODULES (the
// registry's list). A feature added to the registry but not to all.ts would make every
// default Worker whose config uses it refuse to start (cors, admin, rules, key sets...).
import { describe, expect, it } from 'vitest';
import { allFeatures } from '../../src/worker/features/all.js';
import { FEATURE_MODULES, type FeatureName } from '../../src/worker/features/registry.js';

describe('default_entry_given_every_feature', () => {
  it('allFeatures gives every feature the registry names, as the module FEATURE_MODULES points to exports it', async () => {
    const names = Object.keys(FEATURE_MODULES) as FeatureName[];
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const given = await allFeatures(name, name).then((f) => f, (e: unknown) => e);
      expect(given, name).not.toBeInstanceOf(Error);
      const mod = (await import(`../../src/worker/features/${FEATURE_MODULES[name]}.ts`)) as Record<string, unknown>;
      expect(given, name).toBe(mod[name]);
    }
  });
});
