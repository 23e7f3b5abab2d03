// What a revocation names, checked where it enters (the admin endpoint, the Durable
// Object, a delta read back), and the in-memory index a per-isolate view answers from.
// Times are NumericDate seconds, like the claims they are compared with.

import { ownClaim } from '../../claims.js';

/**
 * Revoke one token by its `jti` (the entry lapses at `exp`, when the token would), or
 * every token of `iss`+`sub` issued before `issuedBefore` (lapses at `exp`: set it to
 * the latest `exp` such a token can carry).
 *
 * @example
 * const one: RevocationEntry = { jti: 'b8e1…', exp: 1_800_000_600 };
 * const all: RevocationEntry = {
 *   iss: 'https://id.example',
 *   sub: 'user-1',
 *   issuedBefore: 1_800_000_000,
 *   exp: 1_800_086_400,
 * };
 */
export type RevocationEntry =
  | { readonly jti: string; readonly exp: number }
  | { readonly iss: string; readonly sub: string; readonly issuedBefore: number; readonly exp: number };

/** An entry as the store keeps it: with the version that added it. */
export type VersionedEntry = RevocationEntry & { readonly version: number };

const MAX_JTI = 256;
const MAX_NAME = 1024;
/** Entries live no longer than a year: a bound on the list, whatever `exp` says. */
export const MAX_ENTRY_LIFETIME_S = 366 * 86_400;

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
// With the u flag a surrogate class matches only an unpaired one.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const isName = (v: unknown, max: number): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= max && !LONE_SURROGATE.test(v);

/**
 * `value` as a RevocationEntry, or a fixed reason it is not one: exactly the members of
 * one form, non-empty well-formed strings, whole seconds, `exp` in the future and at
 * most a year ahead.
 *
 * @example
 * parseRevocationEntry({ jti: 'a', exp: now + 60 }, now); // { jti: 'a', exp: now + 60 }
 * parseRevocationEntry({ jti: 'a' }, now); // 'exp must be whole seconds'
 */
export function parseRevocationEntry(value: unknown, nowS: number): RevocationEntry | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(',');
  const exp = ownClaim(v, 'exp');
  if (!isTime(exp)) return 'exp must be whole seconds';
  if (exp <= nowS) return 'exp is in the past';
  if (exp > nowS + MAX_ENTRY_LIFETIME_S) return 'exp is more than a year ahead';
  if (keys === 'exp,jti') {
    const jti = ownClaim(v, 'jti');
    return isName(jti, MAX_JTI) ? { jti, exp } : 'jti must be a string of 1..256 characters';
  }
  if (keys === 'exp,iss,issuedBefore,sub') {
    const iss = ownClaim(v, 'iss');
    const sub = ownClaim(v, 'sub');
    const issuedBefore = ownClaim(v, 'issuedBefore');
    if (!isName(iss, MAX_NAME) || !isName(sub, MAX_NAME)) return 'iss and sub must be strings of 1..1024 characters';
    if (!isTime(issuedBefore)) return 'issuedBefore must be whole seconds';
    return { iss, sub, issuedBefore, exp };
  }
  return 'members must be {jti, exp} or {iss, sub, issuedBefore, exp}';
}

/** One key per (iss, sub) pair; the length prefix keeps it injective. */
export function subjectKey(iss: string, sub: string): string {
  return `${iss.length}:${iss}${sub}`;
}

/**
 * The revocations an isolate knows, indexed so a check is two Map lookups. Entries
 * past their `exp` are skipped when read and dropped by `prune`.
 *
 * @example
 * const index = new RevocationIndex();
 * index.add({ jti: 'a', exp: now + 60 });
 * index.revokes({ jti: 'a' }, now); // true
 */
export class RevocationIndex {
  readonly #byJti = new Map<string, number>();
  readonly #bySubject = new Map<string, { issuedBefore: number; exp: number }>();

  /**
   * `issuerOf` names the issuer an `iss` spelling belongs to (the guard: the first
   * spelling of its issuer entry), on both sides of a subject lookup: a subject
   * revoked under one spelling is revoked under every spelling the guard accepts.
   */
  constructor(readonly issuerOf: (iss: string) => string = (iss) => iss) {}

  get size(): number {
    return this.#byJti.size + this.#bySubject.size;
  }

  add(entry: RevocationEntry): void {
    if ('jti' in entry) {
      this.#byJti.set(entry.jti, Math.max(entry.exp, this.#byJti.get(entry.jti) ?? 0));
      return;
    }
    const key = subjectKey(this.issuerOf(entry.iss), entry.sub);
    const had = this.#bySubject.get(key);
    // Two subject entries merge to the wider one: the later cut-off, kept to the later exp.
    this.#bySubject.set(
      key,
      had
        ? { issuedBefore: Math.max(had.issuedBefore, entry.issuedBefore), exp: Math.max(had.exp, entry.exp) }
        : { issuedBefore: entry.issuedBefore, exp: entry.exp },
    );
  }

  clear(): void {
    this.#byJti.clear();
    this.#bySubject.clear();
  }

  /**
   * Whether a verified payload is revoked at `nowS`. A token of a revoked subject with
   * no numeric `iat` is revoked: nothing shows it was issued after the cut-off.
   */
  revokes(payload: Readonly<Record<string, unknown>>, nowS: number): boolean {
    if (this.#byJti.size > 0) {
      const jti = ownClaim(payload, 'jti');
      if (typeof jti === 'string') {
        const exp = this.#byJti.get(jti);
        if (exp !== undefined && exp > nowS) return true;
      }
    }
    if (this.#bySubject.size > 0) {
      const iss = ownClaim(payload, 'iss');
      const sub = ownClaim(payload, 'sub');
      if (typeof iss === 'string' && typeof sub === 'string') {
        const cut = this.#bySubject.get(subjectKey(this.issuerOf(iss), sub));
        if (cut !== undefined && cut.exp > nowS) {
          const iat = ownClaim(payload, 'iat');
          if (typeof iat !== 'number' || !Number.isFinite(iat) || iat < cut.issuedBefore) return true;
        }
      }
    }
    return false;
  }

  /** Drop what has lapsed at `nowS`. */
  prune(nowS: number): void {
    for (const [k, exp] of this.#byJti) if (exp <= nowS) this.#byJti.delete(k);
    for (const [k, v] of this.#bySubject) if (v.exp <= nowS) this.#bySubject.delete(k);
  }
}
