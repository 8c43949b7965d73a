/**
 * Text every store keeps exactly: no NUL (U+0000; PostgreSQL's text refuses it, SQLSTATE 22021)
 * and no lone UTF-16 surrogate (no UTF-8 spelling: the PostgreSQL driver would send U+FFFD in
 * its place, so a lookup could match another value and a stored one would come back changed).
 * The embedded store keeps both as they are; this one rule makes the two stores answer alike.
 *
 * Where such text is an identifier or a lookup key (a webhook id, a sign-in email), the service
 * treats it as the unknown value it must be: nothing stored can hold it. Anywhere else it is
 * refused by the PostgreSQL store's parameter binding (400), never sent to the database.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** A key made storable: each NUL and lone surrogate becomes U+FFFD (for counters, where two junk keys may share a count). */
export function storableKey(text: string): string {
  return isStorableText(text) ? text : text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
