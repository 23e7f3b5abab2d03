// Waits measured on Vitest's faked clock (setTimeout, clearTimeout and Date faked by the caller): deterministic,
// whatever the machine's load.
import { vi } from 'vitest';
import { codeOf } from '../shared/jwt-mint.js';

/** A promise of `value` after `ms` of the (faked) clock. */
export const later = <T>(ms: number, value: T): Promise<T> => new Promise((r) => setTimeout(() => r(value), ms));

/** `run` started on the faked clock: when it settled (ms) and how, stepping 10 ms at a time up to 3 s. */
export async function timed(run: () => unknown): Promise<{ ms: number; code: string }> {
  const started = Date.now();
  let code: string | undefined;
  void codeOf(run).then((c) => (code = c));
  while (code === undefined && Date.now() - started < 3000) await vi.advanceTimersByTimeAsync(10);
  return { ms: Date.now() - started, code: code ?? 'STILL WAITING' };
}
