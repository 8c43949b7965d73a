import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { FILE_DURATIONS_PATH, fileKey } from './longest-first-sequencer.js';

/**
 * Prints the ten slowest test files after the summary of `npm test`, so that the suite's time
 * is seen where it goes each run (a file runs once per project: the project is named).
 * With RECORD_FILE_DURATIONS=1 it also writes every file's duration to file-durations.json,
 * the order in which the next runs start their files (longest-first-sequencer.ts): record it
 * from a whole run of `npm test` on this machine, not from a subset.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((m) => ({ project: m.project.name, file: m.relativeModuleId, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms);
    if (!timed.length) return;
    const lines = timed.slice(0, 10).map(({ project, file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${project}: ${file}`);
    process.stdout.write(`\nSlowest test files:\n${lines.join('\n')}\n`);
    if (process.env.RECORD_FILE_DURATIONS === '1') {
      const durations = Object.fromEntries(timed.map(({ project, file, ms }) => [fileKey(project, file), Math.round(ms / 100) / 10]));
      writeFileSync(FILE_DURATIONS_PATH, `${JSON.stringify(durations, null, 1)}\n`);
      process.stdout.write(`Recorded ${timed.length} file durations in ${FILE_DURATIONS_PATH.pathname}\n`);
    }
  }
}
