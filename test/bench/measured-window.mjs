/**
 * Loaded into the server by instruction-count.ts (`node --expose-gc --import`): makes the
 * measured window free of garbage collection, so that the instructions counted in it are the
 * requests' own work and repeat from run to run (with V8 collecting whenever its young
 * generation filled, each window held a different number of scavenges and sometimes a full
 * collection: 599,792 and 826,036 instructions per version request on the same build).
 * The first SIGWINCH collects everything (the window starts on an empty young generation),
 * the second closes the window and collects again; after each, MEASURED_WINDOW_FILE says so.
 * The server runs with a young generation larger than the window's allocations
 * (--min/--max-semi-space-size), so none falls inside; the closing figures say how many did
 * (0, or the count is not comparable) and how many bytes the window allocated — exact, as no
 * collection freed any of them.
 */
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.MEASURED_WINDOW_FILE;
if (file) {
  if (typeof globalThis.gc !== 'function') throw new Error('measured-window.mjs needs node --expose-gc');
  let profiler = null;
  let usedAtStart = 0;
  process.on('SIGWINCH', () => {
    if (!profiler) {
      globalThis.gc();
      profiler = new v8.GCProfiler();
      profiler.start();
      usedAtStart = v8.getHeapStatistics().used_heap_size;
      writeFileSync(file, JSON.stringify({ open: true }));
      return;
    }
    const allocated = v8.getHeapStatistics().used_heap_size - usedAtStart;
    const { statistics } = profiler.stop();
    profiler = null;
    globalThis.gc();
    writeFileSync(file, JSON.stringify({ open: false, allocated, collections: statistics.length, types: statistics.map((s) => s.gcType) }));
  });
}
