// What to add to a ConfigError line that the config description can answer: the
// nearest known name for an unknown setting, the allowed values for a value that is not
// one of them. From SETTINGS (config-description.ts), the list the schema is made from.

import { SETTINGS, type ValueType } from '../worker/config-description.js';
import { settingPath } from './setting-position.js';

/** `issuers[3].algorithms[1]` -> `issuers[].algorithms[]`, as SETTINGS writes paths. */
const generic = (setting: string): string => setting.replace(/\[\d+\]/g, '[]');

/** The names an object at `parent` (generic form, '' for GUARD_CONFIG itself) accepts. */
function knownNames(parent: string): string[] {
  const prefix = parent === '' ? '' : `${parent}.`;
  const names = SETTINGS.filter((s) => s.path.startsWith(prefix) && !s.path.slice(prefix.length).includes('.'))
    .map((s) => s.path.slice(prefix.length))
    .filter((n) => n !== '' && !n.includes('['));
  // An inline object's fields (`origin: { service }`) are not settings of their own.
  const own = SETTINGS.find((s) => s.path === parent);
  return [...names, ...(own === undefined ? [] : fieldsOf(own.type))];
}

function fieldsOf(type: ValueType): string[] {
  if (type.kind === 'object') return type.fields.map((f) => f.name);
  if (type.kind === 'anyOf') return type.of.flatMap(fieldsOf);
  return [];
}

/** The enum values a value of `type` (or each element of it) may take. */
function enumOf(type: ValueType): readonly string[] {
  if (type.kind === 'enum') return type.values;
  if (type.kind === 'list' || type.kind === 'oneOrMany') return enumOf(type.item);
  if (type.kind === 'anyOf') return type.of.flatMap(enumOf);
  return [];
}

/** Edit distance (insert, delete, replace, swap of neighbours), case ignored. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  const d = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      const swapped = i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1];
      if (swapped) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

/** The value at `setting` in the parsed config, if it is there. */
function valueAt(config: unknown, setting: string): unknown {
  let v = config;
  for (const part of settingPath(setting)) {
    // One value where a list may be (`"algorithms": "RS256"`) is named as its element 0.
    if (part === 0 && !Array.isArray(v)) continue;
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[part];
  }
  return v;
}

/**
 * The hint for a ConfigError on `setting` with `reason`, given the config it came from:
 * ` (did you mean "audience"?)`, ` (allowed: HS256, …)`, or ''.
 *
 * @example
 * settingHint('issuers[0].audiance', 'unknown setting', config); // ' (did you mean "audience"?)'
 */
export function settingHint(setting: string, reason: string, config: unknown): string {
  const path = generic(setting);
  if (reason === 'unknown setting') {
    const dot = path.lastIndexOf('.');
    const [parent, name] = dot < 0 ? ['', path] : [path.slice(0, dot), path.slice(dot + 1)];
    const near = knownNames(parent)
      .map((n) => ({ n, d: distance(n, name) }))
      .filter(({ d }) => d <= Math.max(1, Math.floor(name.length / 3)))
      .sort((a, b) => a.d - b.d)[0];
    return near === undefined ? '' : ` (did you mean "${near.n}"?)`;
  }
  const described = SETTINGS.find((s) => s.path === path.replace(/\[\]$/, ''));
  const allowed = described === undefined ? [] : enumOf(described.type);
  const value = valueAt(config, setting);
  if (allowed.length === 0 || typeof value !== 'string' || allowed.includes(value)) return '';
  // A reason that already lists the values (`expected "required", "optional" or "none"`) needs no repeat.
  if (allowed.every((v) => reason.includes(`"${v}"`))) return '';
  return ` (allowed: ${allowed.join(', ')})`;
}
