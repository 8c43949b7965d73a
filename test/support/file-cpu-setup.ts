import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** CPU (user + system, ms) of the worker and of the processes it started, while this file ran. */
    cpuMs?: number;
  }
}

/**
 * CPU used so far by this worker process and by its children that have ended (the servers,
 * browsers and commands a test started and waited for), in ms: fields 14–17 of
 * /proc/self/stat, in clock ticks of 10 ms. Undefined where there is no /proc.
 */
function cpuMsSoFar(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
  } catch {
    return undefined;
  }
}

// A worker runs its files one after another and runs this before each: the difference at the
// file's end is that file's CPU (its own hooks' afterAll run first, so its browsers and servers
// have ended by then). The suite is CPU-bound on a 2-core machine: this, not the wall time of a
// file that mostly waited, says what a file costs the run (slowest-files-reporter.ts prints it).
const atStart = cpuMsSoFar();
// (vitest passes the file as the second argument; the first, its fixtures, must be a pattern.)
afterAll(({}, file) => {
  const atEnd = cpuMsSoFar();
  if (atStart !== undefined && atEnd !== undefined) file.meta.cpuMs = atEnd - atStart;
});
