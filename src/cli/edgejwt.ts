#!/usr/bin/env node
// The `edgejwt` command. `npx edgejwt check-config [wrangler.toml|wrangler.jsonc] [--env NAME] [--config FILE.json]`
// checks the guard configuration before a deploy; exit 0 when it holds, 1 naming
// the first bad setting, 2 for usage errors.

import { existsSync, readFileSync } from 'node:fs';
import { checkWranglerConfig, type CheckResult } from './check-config.js';

const USAGE = `Usage: edgejwt check-config [wrangler.toml|wrangler.jsonc|wrangler.json] [--env NAME] [--config GUARD_CONFIG.json]

Checks GUARD_CONFIG (from the Wrangler file's vars, or --config when it is a secret)
exactly as the guard will, and the KV and service bindings it needs.
Exit 0: ok. 1: a setting is wrong (named). 2: usage or unreadable file.`;

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'check-config') {
    console.error(`unknown command ${command}\n\n${USAGE}`);
    return 2;
  }
  let file: string | undefined;
  let env: string | undefined;
  let configFile: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--env' || a === '--config') {
      const v = rest[++i];
      if (v === undefined) {
        console.error(`${a} needs a value\n\n${USAGE}`);
        return 2;
      }
      if (a === '--env') env = v;
      else configFile = v;
    } else if (a === '--help') {
      console.log(USAGE);
      return 0;
    } else if (!a.startsWith('--') && file === undefined) file = a;
    else {
      console.error(`unknown option ${a}\n\n${USAGE}`);
      return 2;
    }
  }
  file ??= ['wrangler.toml', 'wrangler.jsonc', 'wrangler.json'].find((f) => existsSync(f));
  if (file === undefined || !existsSync(file)) {
    console.error(`no Wrangler config found${file === undefined ? ' (wrangler.toml, wrangler.jsonc, wrangler.json)' : `: ${file}`}`);
    return 2;
  }
  const text = readFileSync(file, 'utf8');
  let guardConfig: string | undefined;
  if (configFile !== undefined) {
    try {
      guardConfig = readFileSync(configFile, 'utf8');
    } catch {
      console.error(`cannot read ${configFile}`);
      return 2;
    }
  }
  const result: CheckResult = checkWranglerConfig(text, file, { ...(env === undefined ? {} : { env }), ...(guardConfig === undefined ? {} : { guardConfig }) });

  for (const n of result.notes) console.log(`note: ${n}`);
  if (!result.ok) {
    for (const e of result.errors) console.error(`error: ${e}`);
    return 1;
  }
  console.log(`ok: GUARD_CONFIG in ${configFile ?? file}${env === undefined ? '' : ` (env ${env})`} is valid and its bindings are declared`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
