// What the verify stage asks of a verify tier shared by every isolate (L2): plain reads and writes, so
// the kvTiers part can give one (l2-tier.ts) and a guard without it bundles none of its code.

import type { JWTPayload } from '../../../claims.js';
import type { KeyEntry } from '../../../keys/entry.js';
import type { OpenedToken } from '../../../verify-path.js';
import type { WaitUntil } from '../../context.js';

/**
 * A payload valid now that L1 may keep: the clock ms it holds in, and the key that proved it (none for an
 * introspection answer).
 *
 * @example
 * const kept: KeptEntry = { payload, from: 0, until: Date.now() + 60_000 };
 */
export interface KeptEntry {
  readonly payload: JWTPayload;
  readonly from: number;
  readonly until: number;
  readonly key?: KeyEntry | undefined;
}

/**
 * The KV tier shared by every isolate (l2-tier.ts, made by the kvTiers part): the verify stage keeps the
 * order (L1 -> L2 -> library), the tier keeps what its entries are keyed under and which it may write.
 *
 * @example
 * const kept = await parts.l2?.read(token, verifier.open(token));
 */
export interface SharedVerifyTier {
  /** An L1 hit: a token verified once and seen again is written now if it waited for that (seen-twice). */
  seen(token: string, payload: JWTPayload, ctx: WaitUntil, l1: { proofOf(token: string): KeyEntry | undefined }): void;
  /**
   * Undefined at once when KV is not asked about this token (not a configured issuer and algorithm);
   * else its entry, if one is valid now under the key that would verify it now.
   */
  read(token: string, opened: OpenedToken): Promise<KeptEntry | undefined> | undefined;
  /**
   * The payload the library verified of an opened token: written if `read` would ask for it, under the key that
   * proved it, as the admission policy and the write budget allow.
   */
  write(token: string, payload: JWTPayload, opened: OpenedToken, ctx: WaitUntil): void;
  /** An opaque token's answer sealed under its cacheMs bucket's tag, if valid now and before the bucket ends. */
  readAnswer(token: string, slot: { tag: string; until: number }): Promise<KeptEntry | undefined>;
  /** An introspection answer, under its bucket's tag, as the write budget allows. */
  writeAnswer(token: string, payload: JWTPayload, ctx: WaitUntil, tag: string): void;
}
