import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import LongestFirstSequencer from './test/support/longest-first-sequencer.ts';
import SlowestFilesReporter from './test/support/slowest-files-reporter.ts';

const jsx = { jsx: { runtime: 'automatic', importSource: 'preact' } } as const;

/**
 * Tests about the embedded store itself (its files, its crash safety, its data directory, the
 * CLI that opens it) run once; everything else that talks to a server runs on both stores.
 */
const embeddedOnly = [
  'test/server/storage/embedded/**',
  'test/server/storage/durability.test.ts',
  'test/server/storage/cli-password.test.ts',
  'test/server/storage/cli-admin.test.ts',
  'test/server/push-api/durability.test.ts',
  'test/server/faults/kill-during-burst.test.ts',
  'test/server/faults/full-disk.test.ts',
  'test/server/object-store/kill-mid-upload.test.ts',
  'test/server/object-store/shared-bucket.test.ts',
  'test/server/review/data-dir-lock.test.ts',
  'test/server/ops/start-loads-what-it-uses.test.ts',
];

// A test file that starts servers spent more time importing the server's modules than testing
// (import 431 s against tests 1,761 s summed over the files of one run): each worker now imports
// them once and runs its files one after another with them. Every file still starts its own
// servers, data directories and database; nothing in server/ keeps state at module level
// across a server's close. (The extension's files keep their own modules: the fake browser is
// per file.) Measured on test/server/push-api + test/server/pages: 38 s → 25 s, CPU 54 s → 29 s.
const isolateServerFiles = false;

// Each file's CPU, printed at the end of a run (test/support/file-cpu-setup.ts).
const fileCpu = 'test/support/file-cpu-setup.ts';

// Three projects: the server's tests on the embedded store, the same HTTP suites again on
// PostgreSQL (one cluster per run, one database per test file), and the extension's unit and
// component tests with WXT's fake browser. End-to-end tests (real browsers) are in test/e2e.
export default defineConfig({
  test: {
    reporters: ['default', new SlowestFilesReporter()],
    sequence: { sequencer: LongestFirstSequencer },
    // Most files wait (on browsers, child servers, fsync, PostgreSQL) more than they compute, and
    // vitest's default of one file fewer than the cores meant one file at a time on two cores.
    // Three at a time there: the whole suite in 504 s instead of ~810 s (measured on this 2-core
    // machine while other work loaded it, all 205 files passing; one test needed its retry).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: false,
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // The object-store files run on the embedded store in the server-s3 project.
          exclude: ['test/server/object-store/**'],
          globalSetup: ['test/support/postgres-global-setup.ts', 'test/support/test-run-global-setup.ts'],
          setupFiles: [fileCpu],
          isolate: isolateServerFiles,
          testTimeout: 30_000,
          // Real browsers, processes killed mid-write and databases stopped under load: a test that
          // failed once under CPU contention is run once more (vitest prints each retry). A real
          // failure fails twice.
          retry: 1,
          hookTimeout: 60_000,
        },
        oxc: jsx,
      },
      {
        extends: false,
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['test/server/**/*.test.ts'],
          // Files that pick their stores themselves (the contract suite, PostgreSQL-only storage tests, the multi-instance tests) run once.
          exclude: [...embeddedOnly, 'test/server/catalogue/**', 'test/server/storage/store-contract.test.ts', 'test/server/storage/postgres-*.test.ts', 'test/server/scale-out/**'],
          env: { TEST_STORE: 'postgres' },
          globalSetup: ['test/support/postgres-global-setup.ts'],
          setupFiles: [fileCpu],
          isolate: isolateServerFiles,
          testTimeout: 30_000,
          // Real browsers, processes killed mid-write and databases stopped under load: a test that
          // failed once under CPU contention is run once more (vitest prints each retry). A real
          // failure fails twice.
          retry: 1,
          hookTimeout: 60_000,
        },
        oxc: jsx,
      },
      {
        extends: false,
        test: {
          // The file tests a third time with files in object storage (FILE_STORAGE=s3 against a
          // real S3-protocol server, s3rver, per test file): only the files' own suites.
          name: 'server-s3',
          environment: 'node',
          include: [
            'test/server/push-api/files.test.ts',
            'test/server/push-api/file-ranges.test.ts',
            'test/server/push-api/sliced-upload.test.ts',
            'test/server/push-api/end-to-end.test.ts',
            'test/server/object-store/**/*.test.ts',
          ],
          env: { TEST_FILE_STORAGE: 's3' },
          // After every file: its buckets listed, no object without a push (bucket-audit.ts).
          setupFiles: [fileCpu, 'test/support/bucket-audit-setup.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          isolate: isolateServerFiles,
          testTimeout: 30_000,
          retry: 1,
          hookTimeout: 60_000,
        },
        oxc: jsx,
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'extension',
          environment: 'happy-dom',
          include: ['test/extension/**/*.test.{ts,tsx}'],
          // The fake browser speaks the English catalogue (extension/public/_locales/en).
          setupFiles: [fileCpu, 'test/extension/setup-i18n.ts'],
          // Component tests that render the popup and encrypt files: well under a second alone,
          // but vitest's 5 s default timed them out with the machine loaded (load average 30).
          testTimeout: 30_000,
        },
      },
    ],
  },
});
