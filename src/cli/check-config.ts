// `edgejwt check-config`: read GUARD_CONFIG from a Wrangler config (TOML or
// JSONC), check it exactly as the guard will (parseConfig), and check the
// bindings it needs, so a typo fails before a deploy and not on the first request.

import { ConfigError, parseConfig, type GuardConfig } from '../worker/config.js';
import { parseJsonc } from './jsonc.js';
import { parseToml, TomlError } from './toml.js';

export interface CheckResult {
  ok: boolean;
  /** One line per problem, naming the setting. */
  errors: string[];
  /** What cannot be checked from the file (secrets) and other hints. */
  notes: string[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One Wrangler scope (top level, or `env.NAME`: Wrangler does not inherit vars and bindings into an environment). */
export interface WranglerScope {
  scope: Obj;
  /** Prefix for messages: '' or 'env.NAME.'. */
  where: string;
}

/**
 * Read a wrangler.toml / wrangler.jsonc text down to the scope the guard runs in.
 * @example readWranglerScope(text, 'wrangler.toml', 'production')
 */
export function readWranglerScope(text: string, fileName: string, env?: string): WranglerScope | { error: string } {
  let file: unknown;
  try {
    file = fileName.endsWith('.toml') ? parseToml(text) : parseJsonc(text);
  } catch (e) {
    return { error: `${fileName}: ${e instanceof TomlError || e instanceof SyntaxError ? e.message : 'cannot be read'}` };
  }
  if (!isObj(file)) return { error: `${fileName}: not an object` };
  if (env === undefined) return { scope: file, where: '' };
  const e = isObj(file.env) ? file.env[env] : undefined;
  if (!isObj(e)) return { error: `env.${env}: no such environment in ${fileName}` };
  return { scope: e, where: `env.${env}.` };
}

/**
 * Check the guard configuration in a wrangler.toml / wrangler.jsonc text (GUARD_CONFIG from its vars,
 * or `guardConfig` when it is kept as a secret).
 * @example checkWranglerConfig(readFileSync('wrangler.toml', 'utf8'), 'wrangler.toml', { env: 'production' })
 */
export function checkWranglerConfig(text: string, fileName: string, options: { env?: string; guardConfig?: unknown } = {}): CheckResult {
  const read = readWranglerScope(text, fileName, options.env);
  if ('error' in read) return { ok: false, errors: [read.error], notes: [] };
  const vars = isObj(read.scope.vars) ? read.scope.vars : {};
  const raw = options.guardConfig ?? vars.GUARD_CONFIG;
  if (raw === undefined) {
    return { ok: false, errors: [`${read.where}vars.GUARD_CONFIG: not set in ${fileName} (if it is a secret, check it with --config <file.json>)`], notes: [] };
  }
  return checkGuardConfig(raw, read.scope, read.where);
}

/** Check a GUARD_CONFIG value against the bindings declared in one Wrangler scope. */
export function checkGuardConfig(raw: unknown, scope: Obj, where: string, errors: string[] = [], notes: string[] = []): CheckResult {
  let config: GuardConfig;
  try {
    config = parseConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, errors: [e.message], notes };
    throw e;
  }
  const kv = new Set((Array.isArray(scope.kv_namespaces) ? scope.kv_namespaces : []).filter(isObj).map((n) => n.binding));
  const services = new Set((Array.isArray(scope.services) ? scope.services : []).filter(isObj).map((n) => n.binding));
  const vars = isObj(scope.vars) ? scope.vars : {};

  // The guard needs these only with CACHE_KEY set (a secret this tool cannot see); without the
  // binding and with CACHE_KEY set it would answer 500, so both are required unless turned off.
  if (config.cache.jwks && !kv.has('JWKS_CACHE')) errors.push(`GUARD_CONFIG cache.jwks: the JWKS_CACHE KV binding is missing from ${where}kv_namespaces (or set "cache": { "jwks": false })`);
  if (config.cache.verifyAlgorithms.size > 0 && !kv.has('VERIFY_CACHE')) errors.push(`GUARD_CONFIG cache.verify: the VERIFY_CACHE KV binding is missing from ${where}kv_namespaces`);
  if (typeof config.origin === 'object' && !services.has(config.origin.service)) errors.push(`GUARD_CONFIG origin.service: no [[${where}services]] binding named ${config.origin.service}`);

  const secrets = new Set<string>(['CACHE_KEY']);
  for (const is of config.issuers) if (is.source.kind === 'secret') secrets.add(is.source.binding);
  if (config.admin !== undefined) secrets.add(config.admin.secretBinding);
  const inVars = [...secrets].filter((s) => vars[s] !== undefined);
  for (const s of inVars) notes.push(`${s} is a plain var in ${where}vars: fine for local development, use \`wrangler secret put ${s}\` for a deployment`);
  const toPut = [...secrets].filter((s) => vars[s] === undefined);
  if (toPut.length > 0) notes.push(`secrets the guard reads (cannot be checked here): ${toPut.join(', ')}`);
  return { ok: errors.length === 0, errors, notes };
}
