import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time a process has used (user + system, all its threads), from /proc. Throughput on a
 * shared 2-core machine moves with whatever else runs; the CPU a request costs the server does
 * not, so the bench reports it beside req/s, and it is the figure to compare changes by.
 */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Seconds of CPU used so far by `pid` (0 once it has gone). */
export function cpuSeconds(pid: number): number {
  const f = statFields(pid);
  // Fields 14 and 15 of stat (utime, stime); 12 and 13 here, counted from field 3.
  return f ? (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND : 0;
}

/** Seconds of CPU used so far by `pid` and its current children (PostgreSQL's postmaster and backends). */
export function treeCpuSeconds(pid: number): number {
  let total = cpuSeconds(pid);
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const f = statFields(Number(d));
    if (f && Number(f[1]) === pid) total += (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  }
  return total;
}
