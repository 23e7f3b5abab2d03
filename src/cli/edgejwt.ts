#!/usr/bin/env node
// The `edgejwt` command: `edgejwt check-config [FILE] [--env NAME] [--config FILE.json]`
// checks the guard configuration before a deploy.
// Exit codes: ./cli-error.ts (EXIT).

import { readFileSync } from 'node:fs';
import { checkConfigFile } from './check-config.js';
import { CliError, EXIT, type ExitCode } from './cli-error.js';

const USAGE =
  'Usage: edgejwt check-config [wrangler.toml|wrangler.jsonc|wrangler.json] [--env NAME] [--config GUARD_CONFIG.json]' +
  `
       edgejwt --version | --help

check-config reads the Wrangler file as Wrangler does (through the wrangler package,
which must be installed beside edgejwt), checks GUARD_CONFIG from its vars (or from
--config when GUARD_CONFIG is a secret) exactly as the guard will, and checks the KV
and service bindings it needs. Errors name the file, line and column.

Exit codes:
  0  the configuration holds
  1  the configuration is invalid (each problem is named)
  2  usage error (an unknown option or --env), or a file that cannot be found or read, or no Wrangler`;

/** This package's version, from the package.json above this file (dist/cli/ or a bundle). */
function version(): string {
  for (let url = new URL('./', import.meta.url); url.pathname !== '/'; url = new URL('../', url)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'edgejwt' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: look one folder up
    }
  }
  return 'unknown';
}

interface Parsed {
  file?: string;
  env?: string;
  guardConfigFile?: string;
}

const VALUE_FLAGS: Record<string, keyof Parsed> = {
  '--env': 'env',
  '-e': 'env',
  '--config': 'guardConfigFile',
  '-c': 'guardConfigFile',
};

function parseArgs(rest: string[]): Parsed | ExitCode {
  const out: Parsed = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return EXIT.ok;
    }
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    const field = VALUE_FLAGS[flag];
    if (field !== undefined) {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') {
        console.error(`${flag} needs a value\n\n${USAGE}`);
        return EXIT.usage;
      }
      out[field] = v;
    } else if (!a.startsWith('-') && out.file === undefined) out.file = a;
    else {
      console.error(`unknown option ${a}\n\n${USAGE}`);
      return EXIT.usage;
    }
  }
  return out;
}

async function main(argv: string[]): Promise<ExitCode> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    console.log(version());
    return EXIT.ok;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return EXIT.ok;
  }
  if (command !== 'check-config') {
    console.error(`${command === undefined ? 'no command given' : `unknown command ${command}`}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const args = parseArgs(rest);
  if (typeof args === 'number') return args;
  try {
    const { result, file } = await checkConfigFile(args);
    for (const n of result.notes) console.log(`note: ${n}`);
    if (!result.ok) {
      for (const e of result.errors) console.error(`error: ${e}`);
      return EXIT.invalid;
    }
    console.log(
      `ok: GUARD_CONFIG in ${file}${args.env === undefined ? '' : ` (env ${args.env})`} is valid and its ` +
        `bindings are declared`,
    );
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CliError) {
      console.error(`error: ${e.toString()}`);
      return e.exitCode;
    }
    // Not an answer about the configuration: a bug here, or Wrangler failing in a way it should not.
    console.error(`error: check-config failed: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.usage;
  }
}

process.exitCode = await main(process.argv.slice(2));
