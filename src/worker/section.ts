// An optional top-level section of GUARD_CONFIG (admin, cors, dpop, ...), brought by the stage
// that runs it (its `section`): config-core.ts reads it with the stage's parser when the guard
// was given that stage, and leaves it unread otherwise (stages/needs.ts then refuses the config).
// Its value is read back through the key its folder owns (`corsSection.of(config)`), never
// through a field of GuardConfig, so a new section touches no file outside its stage's folder.

import type { IssuerConfig } from './issuers-config.js';

/**
 * The core checks of GUARD_CONFIG, in the order config-core.ts runs them (`GUARD_CONFIG`: its
 * top-level names). A section is read right after the one it names, so that a config's problems
 * are always named in one order; sections after the same check are read in chain order.
 */
export type CoreCheck =
  | 'GUARD_CONFIG'
  | 'issuers'
  | 'publicPaths'
  | 'tokenSources'
  | 'forwardClaims'
  | 'origin'
  | 'realm'
  | 'jwks'
  | 'clockTolerance'
  | 'cache'
  | 'jwks.maxAgeMs'
  | 'paths';

/** The sections' parsed values, by key (read them with their key: `adminSection.of(config)`). */
export type SectionValues = Readonly<Record<string, unknown>>;

/**
 * What a section's parser may read of the rest of GUARD_CONFIG: what the core has checked by then.
 *
 * @example
 * const adminPath = adminSection.of(cx)?.path;
 */
export interface SectionContext {
  /** GUARD_CONFIG as written. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** The issuers, once checked (after `issuers`); undefined before, or when they have a problem. */
  readonly issuers: readonly IssuerConfig[] | undefined;
  /** The request headers the forward stage sets (forwardClaims', forwardPayload's), once checked. */
  readonly forwardHeaders: readonly string[];
  /** The sections read so far. */
  readonly sections: SectionValues;
}

/**
 * A section's key in GUARD_CONFIG (its stage's name) and the type of its value.
 *
 * @example
 * export const corsSection = sectionKey<CorsConfig>('cors');
 * const c = corsSection.of(b.config); // CorsConfig | undefined
 */
export interface SectionKey<T> {
  readonly key: string;
  /** Its value in a parsed config (or in a SectionContext); undefined when not set. */
  of(holder: { readonly sections: SectionValues }): T | undefined;
}

/**
 * The key of a section whose value is a `T`.
 *
 * @example
 * export const corsSection = sectionKey<CorsConfig>('cors');
 */
export function sectionKey<T>(key: string): SectionKey<T> {
  return { key, of: (holder) => holder.sections[key] as T | undefined };
}

/**
 * How a stage reads its section: its key (the stage's name), when it is read, and its parser.
 *
 * @example
 * const section: GuardSection<CorsConfig> = { key: corsSection, after: 'jwks', parse: (v) => parseCors(v) };
 */
export interface GuardSection<T> {
  readonly key: SectionKey<T>;
  /** The core check it is read after (its parser may read what that check and those before it read). */
  readonly after: CoreCheck;
  /** Its value (undefined: off, as when it is not set), or a ConfigError naming the setting. */
  parse(value: unknown, cx: SectionContext): T | undefined;
}
