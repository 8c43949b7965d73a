import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from './chromium';
import { firefoxPath } from './firefox';

/**
 * Enterprise policies for the extension tests, without touching any other browser on the
 * machine (other test files, other people's runs):
 * - Chromium reads /etc/chromium/policies/managed/*.json, system-wide. The policy written here
 *   names only one extension id (`3rdparty.extensions.<id>`): the id of an unpacked extension is
 *   made from its directory's path, so a copy in a fresh temporary directory has an id no other
 *   test uses, and its file (named by that id) is removed afterwards.
 * - Firefox reads distribution/policies.json beside its binary (checked in about:policies:
 *   Debian's firefox-esr has no /etc/firefox/policies/policies.json and honours this one). A
 *   private Firefox is made instead of writing into /usr/lib/firefox-esr: its launcher copied
 *   (Firefox finds its application directory from the running binary's path), everything else
 *   linked, and a distribution/ of its own.
 */

/** The id Chromium gives an unpacked extension: SHA-256 of its absolute path, first 16 bytes as letters a–p. */
export function unpackedExtensionId(dir: string): string {
  const hex = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

export const chromiumPolicyDir = process.env.CHROMIUM_POLICY_DIR ?? '/etc/chromium/policies/managed';

/** Writes Chromium's managed policy for one extension's storage.managed; gives the function that removes it. */
export function chromiumExtensionPolicy(extensionId: string, values: Record<string, unknown>): () => void {
  mkdirSync(chromiumPolicyDir, { recursive: true });
  const file = join(chromiumPolicyDir, `secret-push-test-${extensionId}.json`);
  writeFileSync(file, JSON.stringify({ '3rdparty': { extensions: { [extensionId]: values } } }, null, 2));
  return () => rmSync(file, { force: true });
}

export interface PolicyFirefox {
  executablePath: string;
  remove(): void;
}

/** A Firefox of its own whose distribution/policies.json holds `policies`. */
export function firefoxWithPolicies(policies: Record<string, unknown>): PolicyFirefox {
  const installed = realpathSync(firefoxPath).replace(/\/[^/]+$/, '');
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-firefox-policy-'));
  for (const name of readdirSync(installed)) {
    if (name === 'distribution' || name === 'firefox-esr' || name === 'firefox-bin') continue;
    symlinkSync(join(installed, name), join(dir, name));
  }
  const binary = realpathSync(firefoxPath).replace(/^.*\//, '');
  copyFileSync(join(installed, binary), join(dir, binary));
  mkdirSync(join(dir, 'distribution'));
  writeFileSync(join(dir, 'distribution', 'policies.json'), JSON.stringify({ policies }, null, 2));
  return { executablePath: join(dir, binary), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export { chromiumPath };
