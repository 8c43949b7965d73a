import type { KeyRing } from '../crypto/key-ring.js';

/**
 * What KeyRing.seal writes: `v1.<key id>.<base64url of at least IV + tag>`. A name typed before
 * names were sealed never has that shape in practice (no spaces, 38 base64url characters or more
 * after two dots), so it tells the two apart without trying to decrypt a plain name.
 */
const SEALED = /^v1\.[\w-]+\.[\w-]{38,}$/;

/**
 * A push's `name` (its owner's label) is sealed at rest like its note: whoever reads the data
 * files or the database rows learns nothing from it. Records stored before names were sealed
 * hold the name as typed; those are read as they are.
 */
export function sealName(keys: KeyRing, name: string | null): string | null {
  return name === null ? null : keys.seal(name);
}

/** The name as typed; a sealed one the key ring cannot open throws DecryptionError, as a note does. */
export function openName(keys: KeyRing, stored: string | null | undefined): string | null {
  if (stored === null || stored === undefined) return null;
  return SEALED.test(stored) ? keys.openText(stored) : stored;
}
