import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { FILE_DURATIONS_PATH, fileKey } from './longest-first-sequencer.js';

/**
 * Prints the ten slowest test files after the summary of `npm test`, so that the suite's time
 * is seen where it goes each run (a file runs once per project: the project is named).
 * With RECORD_FILE_DURATIONS=1 it also writes every file's duration to file-durations.json,
 * the order in which the next runs start their files (longest-first-sequencer.ts): record it
 * from a whole run of `npm test` on this machine, not from a subset. Beside each file's wall
 * time it prints its CPU (file-cpu-setup.ts), and the files that cost the most CPU;
 * RECORD_FILE_CPU=<path> writes every file's CPU seconds there.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((m) => ({ project: m.project.name, file: m.relativeModuleId, ms: m.diagnostic().duration, cpuMs: m.meta().cpuMs }))
      .sort((a, b) => b.ms - a.ms);
    if (!timed.length) return;
    const seconds = (ms: number | undefined) => (ms === undefined ? '     ?' : (ms / 1000).toFixed(1).padStart(6));
    const line = ({ project, file, ms, cpuMs }: (typeof timed)[number]) => `  ${seconds(ms)} s ${seconds(cpuMs)} CPU-s  ${project}: ${file}`;
    process.stdout.write(`\nSlowest test files (wall, then CPU of the file's worker and the processes it started):\n${timed.slice(0, 10).map(line).join('\n')}\n`);
    const costly = timed.filter((t) => t.cpuMs !== undefined).sort((a, b) => b.cpuMs! - a.cpuMs!);
    if (costly.length) {
      const total = costly.reduce((sum, t) => sum + t.cpuMs!, 0);
      process.stdout.write(`Most CPU (${(total / 1000).toFixed(0)} CPU-s in all test files; the run is CPU-bound where the cores are few):\n${costly.slice(0, 10).map(line).join('\n')}\n`);
    }
    if (process.env.RECORD_FILE_CPU) {
      writeFileSync(process.env.RECORD_FILE_CPU, `${JSON.stringify(Object.fromEntries(costly.map((t) => [fileKey(t.project, t.file), Math.round(t.cpuMs! / 100) / 10])), null, 1)}\n`);
    }
    if (process.env.RECORD_FILE_DURATIONS === '1') {
      const durations = Object.fromEntries(timed.map(({ project, file, ms }) => [fileKey(project, file), Math.round(ms / 100) / 10]));
      writeFileSync(FILE_DURATIONS_PATH, `${JSON.stringify(durations, null, 1)}\n`);
      process.stdout.write(`Recorded ${timed.length} file durations in ${FILE_DURATIONS_PATH.pathname}\n`);
    }
  }
}
