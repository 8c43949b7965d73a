/**
 * Firefox's add-on id (the manifest's `browser_specific_settings.gecko.id`), chosen when the
 * extension is built: `FIREFOX_ADDON_ID=… npm run build:ext` (or `zip:ext`). Read by
 * wxt.config.ts only; nothing the extension runs imports it.
 *
 * The id must never change once an add-on is published: addons.mozilla.org (AMO) files every
 * version under it, Firefox updates an installed add-on only from a version with the same id, and
 * policies name the add-on by it (`ExtensionSettings`, `3rdparty.Extensions.<id>`). AMO refuses
 * an id another add-on has taken, so an organisation that signs its own build sets an id of its
 * own (an e-mail-like one at a domain it controls, `secret-push@it.example.com`).
 *
 * The default is a GUID made for this project: it is on no one's domain, so it cannot clash
 * with a real owner's, and it stays the same from build to build (the unsigned and test builds
 * use it).
 */
export const DEFAULT_FIREFOX_ADDON_ID = '{1db29011-82eb-40cb-b418-cfbc682356bd}';

/** The forms Firefox accepts (a GUID in braces, or `name@domain`); AMO takes at most 80 characters. */
const idForm = /^(\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[a-z0-9._-]*@[a-z0-9._-]+)$/i;

/** The id of this build: `FIREFOX_ADDON_ID` when set, else the default; a malformed one stops the build. */
export function firefoxAddonId(env: Record<string, string | undefined> = process.env): string {
  const id = env.FIREFOX_ADDON_ID?.trim() || DEFAULT_FIREFOX_ADDON_ID;
  if (id.length > 80 || !idForm.test(id)) {
    throw new Error(
      `FIREFOX_ADDON_ID=${JSON.stringify(id)} is not an add-on id Firefox accepts: use an e-mail-like id at a domain you control (secret-push@it.example.com) or a GUID in braces ({…}), at most 80 characters.`,
    );
  }
  return id;
}
