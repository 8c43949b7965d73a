import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger.js';
import { DecryptionError, type KeyRing } from './key-ring.js';

export const MASTER_KEY_FILE = 'master.key';

/** Accepts 64 hex characters or base64/base64url of exactly 32 bytes. */
export function parseKey(text: string, what: string): Buffer {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  const b = Buffer.from(t, t.includes('-') || t.includes('_') ? 'base64url' : 'base64');
  if (b.length === 32 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return b;
  throw new Error(`${what} must be 32 bytes as 64 hex characters or base64 (generate one with: openssl rand -hex 32)`);
}

/**
 * The master key comes from MASTER_KEY; without it, from `<DATA_DIR>/master.key`, made on first
 * start with mode 0600. There is never a built-in default key.
 */
export function loadMasterKey(dataDir: string, fromEnv: string | undefined, logger: Logger): Buffer {
  if (fromEnv) return parseKey(fromEnv, 'MASTER_KEY');
  const path = join(dataDir, MASTER_KEY_FILE);
  if (existsSync(path)) return parseKey(readFileSync(path, 'utf8'), path);
  const key = randomBytes(32);
  writeFileSync(path, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  logger.info(`MASTER_KEY is not set: generated a new random key in ${path} (mode 0600). Back it up; without it the stored secrets cannot be read.`);
  return key;
}

export const KEY_CHECK_SETTING = 'key-check';
const KEY_CHECK_TEXT = 'secret-push key check';

export class WrongMasterKeyError extends Error {}

/** Where the key check is kept: the store's settings (a file in the data dir, a database row). */
export interface KeyCheckSlot {
  settingOrInit(name: string, value: string): Promise<string>;
  putSetting(name: string, value: string): Promise<void>;
}

/**
 * A small value sealed under the key the store was first written with. At start it must open
 * with the key ring, so a wrong MASTER_KEY stops the server with a clear message instead of
 * failing on every secret (and, with several instances on one database, an instance given
 * another key refuses to start). After a rotation it is re-sealed under the new key.
 */
/** The key-check value for `keys` (what verifyKeyRing stores in a new store). */
export function sealKeyCheck(keys: KeyRing): string {
  return keys.seal(KEY_CHECK_TEXT);
}

export async function verifyKeyRing(slot: KeyCheckSlot, keys: KeyRing, where: string): Promise<void> {
  const sealed = await slot.settingOrInit(KEY_CHECK_SETTING, sealKeyCheck(keys));
  let ok = false;
  try {
    ok = keys.openText(sealed) === KEY_CHECK_TEXT;
  } catch (e) {
    if (!(e instanceof DecryptionError)) throw e;
  }
  if (!ok) {
    throw new WrongMasterKeyError(
      `MASTER_KEY does not match the key the data in ${where} was stored under. Set MASTER_KEY to that key; to rotate keys, set the new one as MASTER_KEY and the old one in MASTER_KEY_OLD.`,
    );
  }
  if (keys.isStale(sealed)) await slot.putSetting(KEY_CHECK_SETTING, keys.seal(KEY_CHECK_TEXT));
}
