import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the files expected to take longest first, across all projects at once.
 *
 * Vitest's own order runs the projects one after another (by name) and, on a fresh clone with no
 * cache of earlier durations, the files of each by size; so the PostgreSQL project's slow files
 * started late and the run ended with a few long files on a machine otherwise idle. Longest
 * first (the LPT rule) keeps all workers busy until the end. The expected durations come from
 * this machine's last recorded run (file-durations.json, written by `RECORD_FILE_DURATIONS=1
 * npm test` through the slowest-files reporter) and, where vitest has a newer measurement in its
 * cache (a local run), from there. A file not in either (a new one) counts as a short file.
 */
export const FILE_DURATIONS_PATH = new URL('./file-durations.json', import.meta.url);
const UNKNOWN_FILE_SECONDS = 3;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = readRecordedDurations();
    const expected = new Map<TestSpecification, number>();
    for (const file of files) {
      const key = fileKey(file.project.name, relative(this.ctx.config.root, file.moduleId));
      const cached = this.ctx.cache.getFileTestResults(key)?.duration;
      expected.set(file, cached !== undefined ? cached / 1000 : recorded[key] ?? UNKNOWN_FILE_SECONDS);
    }
    return [...files].sort((a, b) => expected.get(b)! - expected.get(a)!);
  }
}

export function fileKey(project: string, relativePath: string): string {
  return `${project}:${relativePath.replaceAll('\\', '/')}`;
}

function readRecordedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(FILE_DURATIONS_PATH, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
