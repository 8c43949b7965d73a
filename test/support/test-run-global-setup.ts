import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A directory for the whole test run, shared by its worker processes through the environment:
 * what several test files need once per run (the extension's builds) is made there by the first
 * file that needs it and reused by the others. Removed when the run ends.
 */
export default function setup() {
  if (process.env.SECRET_PUSH_TEST_RUN_DIR) return;
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-test-run-'));
  process.env.SECRET_PUSH_TEST_RUN_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
