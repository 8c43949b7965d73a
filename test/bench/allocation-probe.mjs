/**
 * Loaded into every process the bench starts (`node --import`): counts the bytes of V8 heap a
 * process allocates between two SIGUSR2 signals and writes the figure to ALLOCATION_PROBE_FILE.
 * V8 keeps no running total, but its GC profiler records the heap before and after each
 * collection: what was allocated is every rise between them, plus the rise since the last one.
 * CPU per request moves with the machine's load; bytes allocated per request do not, and each
 * allocated byte is later GC work on the server's one core.
 */
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.ALLOCATION_PROBE_FILE;
if (file) {
  let profiler = null;
  let usedAtStart = 0;
  process.on('SIGUSR2', () => {
    if (!profiler) {
      profiler = new v8.GCProfiler();
      usedAtStart = v8.getHeapStatistics().used_heap_size;
      profiler.start();
      return;
    }
    const { statistics } = profiler.stop();
    const usedAtEnd = v8.getHeapStatistics().used_heap_size;
    profiler = null;
    let allocated = 0;
    let last = usedAtStart;
    for (const gc of statistics) {
      allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - last);
      last = gc.afterGC.heapStatistics.usedHeapSize;
    }
    allocated += Math.max(0, usedAtEnd - last);
    writeFileSync(file, JSON.stringify({ allocated, collections: statistics.length }));
  });
}
