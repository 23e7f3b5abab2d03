// The Worker bindings a checked configuration needs, in one list: the KV namespaces,
// the service bindings, the Durable Objects and the secrets (with the setting that names
// each). Which settings name a binding is read from the description
// (./config-description.ts: `binding` on a setting or an inline field), so a new setting
// that names one is listed here without a change. `edgejwt check-config` checks a
// Wrangler file against it. build.ts reads each binding where it builds the stage that
// uses it and does not import this module: the description would ship in the guard.

import type { GuardConfig } from './config-core.js';
import { FIXED_BINDINGS, SETTINGS, type BindingKind, type ValueType } from './config-description.js';

export interface RequiredBindings {
  /** KV namespaces, needed when CACHE_KEY is set (the tiers are off without it). */
  kv: { binding: string; setting: string }[];
  /** Service bindings (`origin: { service }`). */
  services: { binding: string; setting: string }[];
  /** Durable Object namespaces named by a setting, with the class each must name (exported by src/worker/index.ts). */
  durableObjects: { binding: string; setting: string; className?: string }[];
  /** Secrets, by binding name: the setting that names each (CACHE_KEY: optional, turns the KV tiers on). */
  secrets: Map<string, string>;
}

/** A setting whose value names a binding; `[]` marks each element of a list. */
export interface BindingSetting {
  path: string;
  kind: BindingKind;
  /** A Durable Object binding's class. */
  className?: string;
}

function fieldsNamingBindings(path: string, t: ValueType, out: BindingSetting[]): void {
  if (t.kind === 'object') {
    for (const f of t.fields) {
      if (f.binding !== undefined)
        out.push({
          path: `${path}.${f.name}`,
          kind: f.binding,
          ...(f.className === undefined ? {} : { className: f.className }),
        });
      fieldsNamingBindings(`${path}.${f.name}`, f.type, out);
    }
  } else if (t.kind === 'anyOf') {
    for (const x of t.of) fieldsNamingBindings(path, x, out);
  } else if (t.kind === 'list') {
    fieldsNamingBindings(`${path}[]`, t.item, out);
  }
}

/**
 * Every setting of the description whose value names a binding.
 *
 * @example
 * bindingSettings().find((s) => s.path === 'origin.service'); // { path: 'origin.service', kind: 'service' }
 */
export function bindingSettings(): BindingSetting[] {
  const out: BindingSetting[] = [];
  for (const s of SETTINGS) {
    if (s.binding !== undefined)
      out.push({ path: s.path, kind: s.binding, ...(s.className === undefined ? {} : { className: s.className }) });
    fieldsNamingBindings(s.path, s.type, out);
  }
  return out;
}

/** The string values at `path` in `raw` (a `[]` segment fans out over a list), with the concrete path of each. */
function valuesAt(raw: unknown, path: string): [string, string][] {
  let here: [string, unknown][] = [['', raw]];
  for (const segment of path.split('.')) {
    const list = segment.endsWith('[]');
    const name = list ? segment.slice(0, -2) : segment;
    const next: [string, unknown][] = [];
    for (const [at, v] of here) {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, name)) continue;
      const child = (v as Record<string, unknown>)[name];
      const where = at === '' ? name : `${at}.${name}`;
      if (!list) next.push([where, child]);
      else if (Array.isArray(child)) for (const [i, item] of child.entries()) next.push([`${where}[${i}]`, item]);
    }
    here = next;
  }
  return here.filter((e): e is [string, string] => typeof e[1] === 'string');
}

/**
 * Every binding a configuration reads: `raw` is GUARD_CONFIG as written (it names the
 * bindings), `config` what parseConfig made of it (it says which KV tiers are on).
 *
 * @example
 * requiredBindings(parseConfig(raw), raw).secrets;
 * // Map { 'CACHE_KEY' => 'CACHE_KEY', 'HS_KEY' => 'issuers[0].secretBinding' }
 */
export function requiredBindings(config: GuardConfig, raw: unknown): RequiredBindings {
  const written: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const on = (setting: string): boolean =>
    setting === 'cache.jwks'
      ? config.cache.jwks
      : setting === 'cache.verify'
        ? config.cache.verifyAlgorithms.size > 0
        : true;
  const result: RequiredBindings = { kv: [], services: [], durableObjects: [], secrets: new Map() };
  const add = (kind: BindingKind, binding: string, setting: string, className?: string): void => {
    if (kind === 'secret') {
      if (!result.secrets.has(binding)) result.secrets.set(binding, setting);
    } else if (kind === 'durableObject')
      result.durableObjects.push({ binding, setting, ...(className === undefined ? {} : { className }) });
    else (kind === 'kv' ? result.kv : result.services).push({ binding, setting });
  };
  for (const f of FIXED_BINDINGS) if (on(f.setting)) add(f.kind, f.binding, f.setting);
  for (const s of bindingSettings())
    for (const [setting, binding] of valuesAt(written, s.path)) add(s.kind, binding, setting, s.className);
  return result;
}
