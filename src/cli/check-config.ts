// `edgejwt check-config`: read GUARD_CONFIG from the Wrangler configuration (through
// Wrangler's own reader, ./wrangler-config.ts), check it exactly as the guard will
// (parseConfig, which finds every problem in one run), check the bindings it needs, and build
// every inline key (./inline-keys.ts), so a typo or a broken key fails before a deploy and not on
// the first request. Errors name the file, line and column, one line per problem.

import { readFileSync } from 'node:fs';
import { requiredBindings } from '../worker/bindings.js';
import { ConfigError, parseConfig, type GuardConfig } from '../worker/config.js';
import { problemsOf } from '../worker/config-problems.js';
import { usesRemoteKeys } from '../worker/stages/verify/uses.js';
import { CliError, EXIT, formatPosition, type SourcePosition } from './cli-error.js';
import { jsonErrorOffset, keyOffset, positionAt, valueOffset } from './source-position.js';
import { settingHint } from './setting-hints.js';
import { settingOffset } from './setting-position.js';
import { inlineKeyErrors } from './inline-keys.js';
import { readWranglerScope, type WranglerScope } from './wrangler-config.js';
import { dpopSection } from '../worker/stages/dpop/section.js';
import { resourceSection } from '../worker/stages/resource/section.js';
import { revocationSection } from '../worker/stages/revocation/section.js';

export interface CheckResult {
  ok: boolean;
  /** One line per problem, naming the setting (and, from a file, where it is), in the order they are written. */
  errors: string[];
  /** What cannot be checked from the file (secrets) and other hints. */
  notes: string[];
}

/** The bindings and vars of one Wrangler scope, as checkGuardConfig reads them. */
export type BindingScope = Pick<WranglerScope, 'vars' | 'kvBindings' | 'serviceBindings' | 'where'> &
  Partial<Pick<WranglerScope, 'durableObjectBindings'>>;

/** Where a setting is written (its key inside GUARD_CONFIG), when that can be told. */
export type LocateSetting = (setting: string) => SourcePosition | undefined;

/**
 * Check a GUARD_CONFIG value (JSON text or object) against the bindings declared in one
 * Wrangler scope. `at` prefixes every error with where GUARD_CONFIG is written; `locate`,
 * when given, with where the setting the error names is written instead.
 *
 * @example
 * checkGuardConfig(config, { vars: {}, kvBindings: new Set(['JWKS_CACHE']), serviceBindings: new Set(), where: '' });
 */
export function checkGuardConfig(
  raw: unknown,
  scope: BindingScope,
  at?: SourcePosition,
  locate?: LocateSetting,
): CheckResult {
  const placeOf = (setting?: string): SourcePosition | undefined =>
    (setting === undefined ? undefined : locate?.(setting)) ?? at;
  const prefixFor = (setting?: string): string => {
    const here = placeOf(setting);
    return here === undefined ? '' : `${formatPosition(here)}: `;
  };
  const notes: string[] = [];
  let config: GuardConfig;
  try {
    config = parseConfig(raw);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const parsed = typeof raw === 'string' ? parsedOrUndefined(raw) : raw;
    // Every problem, one line each, in the order they are written (the parser's order breaks ties).
    const lines = problemsOf(e).map((p) => ({
      at: placeOf(p.setting),
      line: `${prefixFor(p.setting)}${p.message}${settingHint(p.setting, p.reason, parsed)}`,
    }));
    lines.sort((a, b) => (a.at?.line ?? 0) - (b.at?.line ?? 0) || (a.at?.column ?? 0) - (b.at?.column ?? 0));
    return { ok: false, errors: lines.map((l) => l.line), notes };
  }
  const errors: string[] = [];
  const { kvBindings: kv, serviceBindings: services, vars, where } = scope;
  // The guard needs these only with CACHE_KEY set (a secret this tool cannot see); without the
  // binding and with CACHE_KEY set it would answer 500, so both are required unless turned off.
  const needed = requiredBindings(config, raw);
  for (const k of needed.kv) {
    if (kv.has(k.binding)) continue;
    const hint = k.binding === 'JWKS_CACHE' ? ' (or set "cache": { "jwks": false })' : '';
    errors.push(
      `${prefixFor(k.setting)}GUARD_CONFIG ${k.setting}: the ${k.binding} KV binding is missing from ` +
        `${where}kv_namespaces${hint}`,
    );
  }
  for (const sv of needed.services)
    if (!services.has(sv.binding))
      errors.push(
        `${prefixFor(sv.setting)}GUARD_CONFIG ${sv.setting}: no [[${where}services]] binding named ${sv.binding}`,
      );
  for (const d of needed.durableObjects) {
    const cls = scope.durableObjectBindings?.get(d.binding);
    if (cls === undefined || (d.className !== undefined && cls !== d.className))
      errors.push(
        `${prefixFor(d.setting)}GUARD_CONFIG ${d.setting}: no [[${where}durable_objects.bindings]] named ` +
          `${d.binding}${d.className === undefined ? '' : ` with class_name = "${d.className}"`} (and a ` +
          `[[migrations]] new_sqlite_classes entry for it)`,
      );
  }
  if (dpopSection.of(config)?.replay.kind === 'isolate')
    notes.push(
      'dpop.replay is "isolate": each isolate remembers only the proofs it saw, so a proof replayed to ' +
        'another isolate is accepted (tests and one-isolate dev only; use { "durableObject": "<binding>" })',
    );
  const rid = resourceSection.of(config)?.id;
  // An issuer's own audience replaces resource.id (RFC 8707): one that leaves it out is likely a leftover.
  config.issuers.forEach((is, i) => {
    if (rid === undefined || is.audience.includes(rid)) return;
    notes.push(
      `issuers[${i}].audience does not name resource.id (${rid}): tokens issued for this resource are refused`,
    );
  });
  if (revocationSection.of(config)?.store === 'isolate')
    notes.push(
      'revocation.store is "isolate": each isolate keeps its own list, so a revocation reaches only the ' +
        'isolate that received it (tests and one-isolate dev only; use { "durableObject": "<binding>" })',
    );

  if (usesRemoteKeys(config) && config.cache.jwksColo && vars.CACHE_KEY === undefined) notes.push(...COLO_TIER_NOTES);

  const secrets = [...needed.secrets.keys()];
  for (const s of secrets)
    if (vars[s] !== undefined)
      notes.push(
        `${s} is a plain var in ${where}vars: fine for local development, use \`wrangler secret put ${s}\` ` +
          `for a deployment`,
      );
  const toPut = secrets.filter((s) => vars[s] === undefined);
  if (toPut.length > 0) notes.push(`secrets the guard reads (cannot be checked here): ${toPut.join(', ')}`);
  return { ok: errors.length === 0, errors, notes };
}

/**
 * What the Cache API key-set tier needs and buys (figures: bench/guard/fleet.ts, docs/speed.md); printed for a
 * config that fetches key sets, since CACHE_KEY is a secret this tool cannot see.
 */
const COLO_TIER_NOTES = [
  'fetched key sets: make sure the CACHE_KEY secret is set; without it the Cache API tier (cache.jwksColo) ' +
    'is off and refetches are bounded per isolate, not per data centre (bench/guard/fleet.ts: a kid spray ' +
    'costs 23 provider fetches a minute per data centre instead of 2; with KV alone, ~69,000 KV reads per 1M ' +
    'requests instead of 423)',
  'the Cache API stores nothing on *.workers.dev (nor behind Cloudflare Access): the tier works only on a ' +
    'custom domain or route',
];

export interface CheckOptions {
  /** The Wrangler file; by default the one Wrangler finds from the working directory. */
  file?: string;
  /** A Wrangler environment (`--env`): its own vars and bindings, none inherited. */
  env?: string;
  /** A JSON file holding GUARD_CONFIG, for when it is kept as a secret. */
  guardConfigFile?: string;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new CliError(EXIT.usage, `cannot read ${file}`);
  }
}

/**
 * Check the guard configuration of a Wrangler project: the config, its bindings, and
 * (once those pass) every inline key built as the guard will build it at its first
 * token (inlineKeyErrors). Resolves to the result and the
 * file read; throws CliError for a file that cannot be found or read (exit 2) or that
 * Wrangler refuses (exit 1).
 *
 * @example
 * const { result } = await checkConfigFile({ file: 'wrangler.toml', env: 'production' });
 * if (!result.ok) console.error(result.errors.join('\n'));
 */
export async function checkConfigFile(
  options: CheckOptions = {},
): Promise<{ result: CheckResult; file: string; raw?: unknown }> {
  const scope = await readWranglerScope(options.file, options.env);
  let raw: unknown;
  let file: string;
  let text: string;
  let key: number | undefined;
  if (options.guardConfigFile !== undefined) {
    file = options.guardConfigFile;
    text = readText(file);
    raw = text;
    key = 0;
  } else {
    file = scope.file;
    raw = scope.vars.GUARD_CONFIG;
    if (raw === undefined) {
      const error =
        `${scope.where}vars.GUARD_CONFIG: not set in ${file} (if it is a secret, check it with --config ` +
        `<file.json>)`;
      return { result: { ok: false, errors: [error], notes: [] }, file };
    }
    text = readText(file);
    key = keyOffset(text, 'GUARD_CONFIG', options.env);
  }
  const value = typeof raw === 'string' ? valueOffset(text, raw, key ?? 0) : undefined;
  const where = (offset: number | undefined): SourcePosition | undefined =>
    offset === undefined ? undefined : positionAt(text, offset, file);
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (e) {
      // The parser's own message quotes the text; only its position is kept.
      const inValue = jsonErrorOffset(e);
      const at = where(value !== undefined && inValue !== undefined ? value + inValue : (value ?? key));
      return {
        result: {
          ok: false,
          errors: [`${at === undefined ? '' : `${formatPosition(at)}: `}GUARD_CONFIG is not valid JSON`],
          notes: [],
        },
        file,
      };
    }
  }
  const at = where(value ?? key);
  // GUARD_CONFIG's JSON starts at its string's first character, or after `"GUARD_CONFIG":` in a JSONC file.
  const start = value ?? (key === undefined ? undefined : text.indexOf(':', key) + 1);
  const locate: LocateSetting = (setting) =>
    where(start === undefined ? undefined : settingOffset(text, start, setting));
  const result = checkGuardConfig(raw, scope, at, locate);
  if (result.ok) {
    // The guard builds keys at their first token; the deploy builds them all now.
    const keyErrors = await inlineKeyErrors(parseConfig(raw));
    if (keyErrors.length > 0)
      return {
        result: {
          ok: false,
          errors: keyErrors.map((e) => `${at === undefined ? '' : `${formatPosition(at)}: `}${e}`),
          notes: result.notes,
        },
        file,
        raw,
      };
  }
  return { result, file, raw };
}
