import { createHmac, randomBytes } from 'node:crypto';
import { DecryptionError, type KeyRing } from '../crypto/key-ring.js';
import { WrongMasterKeyError, type KeyCheckSlot } from '../crypto/master-key.js';
import type { StoredPush } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { URL_TOKEN_PATTERN } from './url-token.js';

/** The setting holding the HMAC key, sealed under the key ring. */
export const URL_TOKEN_KEY_SETTING = 'url-token-key';
/**
 * Storage ids start with a character outside the URL token alphabet ([a-z0-9_-]), so an id can
 * never be mistaken for a token, nor a token left by an older version for an id.
 */
const ID_PREFIX = 'H';

/**
 * A push is stored and looked up under a keyed hash of its URL token (HMAC-SHA256), never the
 * token itself: a copy of the data directory, the journal or the database lists no working
 * link. The plain token exists only in the answer to its creator (and, sealed, in the record of
 * a push that has an owner, whose lists show their links).
 *
 * The HMAC key is random and kept sealed in the store's settings rather than derived from
 * MASTER_KEY, so rotating MASTER_KEY keeps every link working; after a rotation it is re-sealed
 * under the new key.
 */
export class UrlTokenIds {
  constructor(private readonly key: Buffer) {}

  /** The storage id of a URL token. */
  of(token: string): string {
    return ID_PREFIX + createHmac('sha256', this.key).update(token).digest('base64url');
  }

  /** Whether a stored push still sits under its plain token (written before tokens were hashed). */
  static isPlainToken(stored: string): boolean {
    return URL_TOKEN_PATTERN.test(stored);
  }
}

/**
 * The store's HMAC key: made (random) on first use, or `initial` (a sealed key from another
 * store, when moving one store into another) when the store has none yet.
 */
export async function loadUrlTokenIds(slot: KeyCheckSlot, keys: KeyRing, initial?: string): Promise<{ ids: UrlTokenIds; sealedKey: string }> {
  const sealedKey = await slot.settingOrInit(URL_TOKEN_KEY_SETTING, initial ?? keys.seal(randomBytes(32)));
  let key: Buffer;
  try {
    key = keys.open(sealedKey);
  } catch (e) {
    if (!(e instanceof DecryptionError)) throw e;
    throw new WrongMasterKeyError(
      'MASTER_KEY does not match the key the URL-token key in the store was sealed under. Set MASTER_KEY to that key (with MASTER_KEY_OLD for a rotation).',
    );
  }
  if (keys.isStale(sealedKey)) await slot.putSetting(URL_TOKEN_KEY_SETTING, keys.seal(key));
  return { ids: new UrlTokenIds(key), sealedKey };
}

/**
 * Moves pushes written before URL tokens were hashed to their storage id (record, audit trail
 * and files), sealing the token of pushes with an owner. Run at every start and by
 * `npm run store:migrate`; a push already under its id is left alone, so it is safe to repeat
 * and to cut short. Resolves with the number of pushes moved.
 */
export async function hashStoredUrlTokens(store: Store, ids: UrlTokenIds, keys: KeyRing): Promise<number> {
  // Once a store is done, starts skip the scan (a setting, like the key check).
  if ((await store.settingOrInit(HASHED_SETTING, 'plain')) === 'hashed') return 0;
  const moved = await store.renamePushes((push: StoredPush) => {
    if (!UrlTokenIds.isPlainToken(push.token)) return undefined;
    return { ...push, token: ids.of(push.token), urlToken: push.ownerId ? keys.seal(push.token) : null };
  });
  await store.putSetting(HASHED_SETTING, 'hashed');
  return moved;
}

const HASHED_SETTING = 'url-tokens';
