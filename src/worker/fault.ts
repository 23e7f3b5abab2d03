// A guard failure that is not the caller's fault: a bug, a runtime fault, or a
// verify failure the library marks as the server's (src/bearer/challenge.ts,
// serverFault: the Wasm core cannot start, options, ...). It is a 500 with one
// log line naming the code, never a 401 that blames the token.

import { isJwtError } from '../errors.js';
import type { Counters } from './counters.js';
import { serverError } from './responses.js';

/** What the fault answer needs of the guard. */
export interface FaultSink {
  counters: Counters;
  log: (line: string) => void;
}

/**
 * The code a fault is logged under: a JwtError's code, else `internal_error`
 * (an exception's own message is never logged: it may quote request data).
 *
 * @example
 * faultCode(new JwtError('ERR_WASM_CORE')); // 'ERR_WASM_CORE'
 * faultCode(new TypeError('x')); // 'internal_error'
 */
export function faultCode(e: unknown): string {
  return isJwtError(e) ? e.code : 'internal_error';
}

/**
 * Count the fault, log one line naming its code, and answer 500 (the runner adds each stage's `fault` hook).
 *
 * @example
 * try { res = await route(request); } catch (e) { res = internalFault(e, parts); }
 */
export function internalFault(e: unknown, sink: FaultSink): Response {
  sink.counters.inc('internal_error');
  sink.log(JSON.stringify({ edgejwt: 'error', code: faultCode(e), name: e instanceof Error ? e.name : typeof e }));
  return serverError();
}
