// The Wrangler configuration, read by Wrangler itself (`unstable_readConfig`, the
// reader `wrangler deploy` uses): the same file search, TOML and JSONC, and the
// same environment rules (vars and bindings are not inherited into `env.NAME`).
// Wrangler is an optional peer dependency: whoever deploys the guard has it, and
// the library keeps no runtime dependency of its own.

import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { CliError, EXIT, type SourcePosition } from './cli-error.js';
import { envSectionOffset } from './source-position.js';

/** The parts of one resolved Wrangler environment that the guard check reads. */
export interface WranglerScope {
  /** The file Wrangler read (absolute or as given). */
  file: string;
  vars: Record<string, unknown>;
  kvBindings: ReadonlySet<string>;
  serviceBindings: ReadonlySet<string>;
  /** Durable Object bindings: name -> class_name. */
  durableObjectBindings: ReadonlyMap<string, string>;
  /** Prefix for messages: '' or 'env.NAME.'. */
  where: string;
}

interface WranglerModule {
  unstable_readConfig(
    args: { config?: string; env?: string },
    options?: { hideWarnings?: boolean },
  ): {
    configPath?: string;
    vars?: Record<string, unknown>;
    kv_namespaces?: { binding?: unknown }[];
    services?: { binding?: unknown }[];
    durable_objects?: { bindings?: { name?: unknown; class_name?: unknown }[] };
  };
}

async function loadWrangler(): Promise<WranglerModule> {
  try {
    // A variable specifier keeps bundlers from inlining Wrangler into the CLI.
    const name = 'wrangler';
    const mod = (await import(name)) as Partial<WranglerModule>;
    if (typeof mod.unstable_readConfig !== 'function') throw new Error('no unstable_readConfig');
    return mod as WranglerModule;
  } catch {
    throw new CliError(
      EXIT.usage,
      'edgejwt check-config reads the Wrangler file through Wrangler 4 (unstable_readConfig): install it ' +
        'beside edgejwt with `npm install -D wrangler`',
    );
  }
}

/** A path as messages show it: relative to the working directory when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

const bindingNames = (list: { binding?: unknown }[] | undefined): Set<string> =>
  new Set((list ?? []).map((b) => b.binding).filter((b): b is string => typeof b === 'string'));

/**
 * Read `file` (or, as Wrangler does, the wrangler.json/jsonc/toml nearest to the working
 * directory) for environment `env`. Throws CliError: exit 1 for a file Wrangler
 * refuses (with its line and column), 2 when there is no file or no Wrangler.
 *
 * @example
 * const scope = await readWranglerScope('wrangler.toml', 'production');
 * scope.vars.GUARD_CONFIG; // the JSON text, or an object in wrangler.jsonc
 */
export async function readWranglerScope(file: string | undefined, env: string | undefined): Promise<WranglerScope> {
  const wrangler = await loadWrangler();
  let config: ReturnType<WranglerModule['unstable_readConfig']>;
  try {
    config = wrangler.unstable_readConfig(
      { ...(file === undefined ? {} : { config: file }), ...(env === undefined ? {} : { env }) },
      { hideWarnings: true },
    );
  } catch (e) {
    throw fromWranglerError(e, file);
  }
  if (config.configPath === undefined)
    throw new CliError(
      EXIT.usage,
      'no Wrangler configuration found (wrangler.json, wrangler.jsonc or wrangler.toml here or in a parent folder)',
    );
  // Wrangler reports an unknown --env only when the file has other environments; with none it
  // reads the top level instead, which would check a config that `--env NAME` never deploys.
  if (env !== undefined && envSectionOffset(readFileSync(config.configPath, 'utf8'), env) < 0) {
    throw new CliError(EXIT.usage, `no environment "${env}" in ${shown(config.configPath)} (no [env.${env}] section)`);
  }
  return {
    file: shown(config.configPath),
    vars: config.vars ?? {},
    kvBindings: bindingNames(config.kv_namespaces),
    serviceBindings: bindingNames(config.services),
    durableObjectBindings: new Map(
      (config.durable_objects?.bindings ?? [])
        .filter((b) => typeof b.name === 'string' && typeof b.class_name === 'string')
        .map((b) => [b.name as string, b.class_name as string]),
    ),
    where: env === undefined ? '' : `env.${env}.`,
  };
}

/** Wrangler's ParseError carries `location` ({ file, line, column }, the column from 0); its other errors are text. */
function fromWranglerError(e: unknown, file: string | undefined): CliError {
  const err = e as { message?: unknown; location?: { file?: unknown; line?: unknown; column?: unknown } };
  const message = typeof err.message === 'string' ? err.message.trim() : 'Wrangler could not read the configuration';
  const loc = err.location;
  if (/^Could not read file/.test(message))
    return new CliError(EXIT.usage, `cannot read ${file ?? 'the Wrangler configuration'}`);
  // An --env the file does not define is a usage error (exit 2), as the documented table says.
  if (/No environment found in configuration with name/.test(message)) return new CliError(EXIT.usage, message);
  if (loc !== undefined && typeof loc.line === 'number') {
    const at: SourcePosition = {
      file: typeof loc.file === 'string' ? shown(loc.file) : (file ?? 'wrangler configuration'),
      line: loc.line,
      column: typeof loc.column === 'number' ? loc.column + 1 : 1,
    };
    return new CliError(EXIT.invalid, message, at);
  }
  return new CliError(EXIT.invalid, message);
}
