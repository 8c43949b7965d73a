import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the ten slowest test files after the summary of `npm test`, so that the suite's time
 * is seen where it goes each run (a file runs once per project: the project is named).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((m) => ({ file: `${m.project.name}: ${m.relativeModuleId}`, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (!timed.length) return;
    const lines = timed.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
    process.stdout.write(`\nSlowest test files:\n${lines.join('\n')}\n`);
  }
}
