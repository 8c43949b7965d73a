// The memory of a browser this script launched: every process below this one (a browser is a
// tree of them) except the ones named in `exclude` (the measured server) and their children,
// read from /proc. RSS counts pages shared between the processes once per process; PSS divides
// them among the sharers, so its sum is the browser's real share of the machine.
import { readdirSync, readFileSync } from 'node:fs';

export interface MemoryFigures {
  rss: number;
  pss: number;
  processes: number;
}

function processes(): { pid: number; ppid: number; name: string }[] {
  const out: { pid: number; ppid: number; name: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after its last ')'.
      const close = stat.lastIndexOf(')');
      const rest = stat.slice(close + 2).split(' ');
      out.push({ pid: Number(entry), ppid: Number(rest[1]), name: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

function descendants(root: number, exclude: Set<number>): number[] {
  const all = processes();
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    if (exclude.has(pid)) continue;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

export function browserMemory(exclude: number[]): MemoryFigures {
  let rss = 0;
  let pss = 0;
  let count = 0;
  for (const pid of descendants(process.pid, new Set(exclude))) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
      rss += kb('Rss');
      pss += kb('Pss');
      count++;
    } catch {
      // a process that ended while sampled
    }
  }
  return { rss, pss, processes: count };
}

/** Samples every `everyMs` until stopped; the peak of each sum (not necessarily at the same instant). */
export function memoryPeak(exclude: number[], everyMs = 200) {
  const peak: MemoryFigures = { rss: 0, pss: 0, processes: 0 };
  const take = () => {
    const m = browserMemory(exclude);
    peak.rss = Math.max(peak.rss, m.rss);
    peak.pss = Math.max(peak.pss, m.pss);
    peak.processes = Math.max(peak.processes, m.processes);
  };
  take();
  const timer = setInterval(take, everyMs);
  return () => {
    clearInterval(timer);
    take();
    return peak;
  };
}
