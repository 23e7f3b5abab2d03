// The guard's counters (src/worker/counters.ts): `since` never reports the epoch that
// a Worker's clock reads while the script starts up.
import { describe, expect, it } from 'vitest';
import { Counters } from '../../src/worker/counters.js';

describe('Counters since', () => {
  it('counters_since_not_1970_when_built_at_startup', () => {
    let clock = 0; // a Worker's Date.now() during startup
    const lines: string[] = [];
    const c = new Counters(
      (l) => lines.push(l),
      clock,
      () => clock,
    );
    expect(c.sinceIso()).toBeNull();
    c.inc('requests'); // still at startup: nothing known yet
    expect(c.sinceIso()).toBeNull();
    clock = Date.UTC(2026, 10, 27, 2, 40);
    c.inc('requests');
    expect(c.sinceIso()).toBe('2026-11-27T02:40:00.000Z');
    clock += 5_000;
    c.inc('accepted');
    expect(c.startedAt).toBe(Date.UTC(2026, 10, 27, 2, 40));
    // The first log line comes a minute after counting began, and names that time.
    c.maybeLog(clock);
    expect(lines).toEqual([]);
    c.maybeLog(Date.UTC(2026, 10, 27, 2, 41));
    expect(JSON.parse(lines[0]!)).toMatchObject({
      edgejwt: 'counters',
      since: '2026-11-27T02:40:00.000Z',
      requests: 2,
      accepted: 1,
    });
  });

  it('built with the clock running: since is that moment', () => {
    const t = Date.UTC(2026, 0, 1);
    const c = new Counters(
      () => undefined,
      t,
      () => t + 1,
    );
    c.inc('requests');
    expect(c.sinceIso()).toBe('2026-01-01T00:00:00.000Z');
  });
});
