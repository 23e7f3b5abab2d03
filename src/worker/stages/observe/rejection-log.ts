// One structured JSON line per refused request, so `wrangler tail` says why:
// the error code, the claim, the token's (unverified) iss, kid and alg, the rule,
// method and path. Never the token, a signature or a key. Rate-limited per
// isolate (a token bucket) so a flood of bad tokens cannot flood the logs; the
// next line that gets out says how many were dropped.

/** A refusal's reason. `wrong_issuer`: the token's iss is not configured (or not allowed by the rule). */
export type RejectionCode =
  | 'missing_token'
  | 'malformed_token'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'claim_mismatch'
  | 'insufficient_scope'
  | 'insufficient_user_authentication'
  | 'claim_not_forwardable'
  | 'method_override'
  | 'keys_unavailable'
  | 'unproven_confirmation'
  | `dpop_${string}`
  | 'mtls_cert_unverified'
  | 'revoked'
  | 'revocation_unavailable'
  | `ERR_${string}`;

export interface Rejection {
  code: RejectionCode;
  status: number;
  claim?: string | undefined;
  iss?: unknown;
  kid?: unknown;
  alg?: unknown;
  rule?: string | undefined;
  method: string;
  path: string;
}

const MAX_FIELD = 200;
/** Burst, and lines per second after it. */
const BURST = 20;
const PER_SECOND = 1;

export class RejectionLog {
  readonly #log: (line: string) => void;
  readonly #now: () => number;
  #tokens = BURST;
  #last: number;
  #dropped = 0;

  constructor(log: (line: string) => void, now: () => number) {
    this.#log = log;
    this.#now = now;
    this.#last = now();
  }

  /** Lines dropped since the last one that was written. */
  get dropped(): number {
    return this.#dropped;
  }

  write(r: Rejection): void {
    const t = this.#now();
    this.#tokens = Math.min(BURST, this.#tokens + ((t - this.#last) / 1000) * PER_SECOND);
    this.#last = t;
    if (this.#tokens < 1) {
      this.#dropped++;
      return;
    }
    this.#tokens -= 1;
    const line: Record<string, unknown> = { edgejwt: 'rejected', code: r.code, status: r.status };
    if (r.claim !== undefined) line.claim = field(r.claim);
    // Unverified header and payload values, as the client sent them: clipped, strings only.
    for (const k of ['iss', 'kid', 'alg'] as const) if (typeof r[k] === 'string') line[k] = field(r[k]);
    if (r.rule !== undefined) line.rule = r.rule;
    line.method = field(r.method);
    line.path = field(r.path);
    if (this.#dropped > 0) line.dropped = this.#dropped;
    this.#dropped = 0;
    this.#log(JSON.stringify(line));
  }
}

function field(v: string): string {
  return v.length > MAX_FIELD ? `${v.slice(0, MAX_FIELD)}…` : v;
}
