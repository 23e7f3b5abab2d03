// The vocabulary of the config description (config-description.ts): the kinds of
// value, field, setting and binding the generators (scripts/gen-config.mjs) render.

/** What kind of Worker binding a setting's value names. */
export type BindingKind = 'secret' | 'kv' | 'service' | 'durableObject';

/** The shape of a value, as the schema, the input types and the table render it. */
export type ValueType =
  | { kind: 'string'; pattern?: string; minLength?: number; format?: 'uri'; notIn?: readonly string[]; note?: string }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'boolean' }
  | { kind: 'const'; value: string | boolean }
  | { kind: 'enum'; values: readonly string[] }
  /** A claim value: string, number (safe integer or fraction) or boolean. */
  | { kind: 'claimValue' }
  /** Any JSON object (an inline JWK). */
  | { kind: 'jsonObject' }
  | { kind: 'list'; item: ValueType; nonEmpty?: boolean }
  /** One value or a non-empty list of them (`emptyList`: an empty list is fine too). */
  | { kind: 'oneOrMany'; item: ValueType; emptyList?: true }
  | { kind: 'map'; value: ValueType }
  | { kind: 'anyOf'; of: readonly ValueType[] }
  /** A small object written inline, its fields listed here (not settings of their own). */
  | { kind: 'object'; fields: readonly Field[]; open?: boolean }
  /**
   * An object whose settings are the entries below it in SETTINGS (path `<this>.name`, or
   * `<this>[].name` inside a list). `def` names it in the schema's $defs, `tsName` in
   * config-input.ts, `keys` the constant in config-keys.ts; `schema` adds whole-object rules;
   * `doc` is the interface's TSDoc when it differs from the setting's.
   */
  | { kind: 'section'; def?: string; tsName?: string; keys?: string; schema?: Record<string, unknown>; doc?: string };

/** A field of an inline object. */
export interface Field {
  name: string;
  type: ValueType;
  required?: true;
  doc?: string;
  binding?: BindingKind;
  /** For a Durable Object binding: the class it must name (exported by the guard's entry). */
  className?: string;
}

/** One setting of GUARD_CONFIG. */
export interface Setting {
  /** Where it is written: `cache.verify`; `[]` marks each element of a list (`issuers[].audience`). */
  path: string;
  type: ValueType;
  /** One line, for the schema, the TSDoc and the docs table. */
  doc: string;
  default?: unknown;
  required?: true;
  /** The value names a Worker binding of this kind (bindings.ts, edgejwt check-config). */
  binding?: BindingKind;
  /** For a Durable Object binding: the class it must name (exported by the guard's entry). */
  className?: string;
  /** The TypeScript type when it is looser than the schema's (kept as the public API had it). */
  ts?: string;
}

/** Bindings the guard reads by a fixed name (no setting names them). */
export interface FixedBinding {
  binding: string;
  kind: BindingKind;
  /** The setting that turns it on. */
  setting: string;
  doc: string;
}
