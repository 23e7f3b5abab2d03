// What `edgejwt check-config` reads of a Wrangler file besides vars, KV and services:
// the Durable Object bindings (`[[durable_objects.bindings]]`, per environment), which
// it checks against the settings the config description marks `binding: 'durableObject'`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWranglerScope } from '../../src/cli/wrangler-config.js';

describe('readWranglerScope: Durable Object bindings', () => {
  it('wrangler_scope_reads_durable_object_bindings: top level and an environment, not inherited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgejwt-scope-'));
    const file = join(dir, 'wrangler.toml');
    writeFileSync(
      file,
      [
        'name = "g"',
        'main = "x.ts"',
        '[[durable_objects.bindings]]',
        'name = "DPOP_REPLAY"',
        'class_name = "DpopReplayShard"',
        '[env.prod]',
        '[[env.prod.durable_objects.bindings]]',
        'name = "REVOCATIONS"',
        'class_name = "RevocationList"',
        '',
      ].join('\n'),
    );
    expect([...(await readWranglerScope(file, undefined)).durableObjectBindings]).toEqual([
      ['DPOP_REPLAY', 'DpopReplayShard'],
    ]);
    expect([...(await readWranglerScope(file, 'prod')).durableObjectBindings]).toEqual([
      ['REVOCATIONS', 'RevocationList'],
    ]);
  });
});
