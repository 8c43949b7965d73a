import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts each project's files longest first.
 *
 * Vitest's own order, on a fresh clone with no cache of earlier durations (as in CI), runs each
 * project's files by size, so a project's slow files could start late and the run end with a
 * few long files on a machine otherwise idle; longest first (the LPT rule) keeps the workers
 * busy until the end. The projects stay one after another, as vitest orders them: a worker
 * keeps a project's modules for its next file (isolate: false), and mixing the projects' files
 * made every worker import the server again and again (import time 90 s → 493 s in one run,
 * the suite 642 s → 956 s). The expected durations come from
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
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return expected.get(b)! - expected.get(a)!;
    });
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
