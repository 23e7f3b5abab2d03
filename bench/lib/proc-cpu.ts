// CPU time of a child process, read from Linux's per-thread scheduler statistics
// (/proc/<pid>/task/<tid>/schedstat, first field: ns on a CPU). Benches on a shared
// machine read it instead of wall time, which also counts the time other processes
// held the CPU; every thread counts (WebCrypto pools, V8's GC helpers).
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The pid of a process named `name` whose parent is this process (Miniflare's workerd), or
 * undefined (not Linux, or no such child).
 *
 * @example
 * const pid = childPid('workerd'); // after `await mf.ready`
 */
export function childPid(name: string): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const found = readdirSync('/proc').find((d) => {
    if (!/^\d+$/.test(d)) return false;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      return stat.includes(`(${name})`) && stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(process.pid);
    } catch {
      return false;
    }
  });
  return found === undefined ? undefined : Number(found);
}

/**
 * ns the process `pid` has spent on a CPU so far, all its threads together.
 *
 * @example
 * const c0 = processCpuNs(pid); await work(); const ns = processCpuNs(pid) - c0;
 */
export function processCpuNs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns;
}
