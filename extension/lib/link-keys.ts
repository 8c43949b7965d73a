import { tokenKey } from './kind-memory';
import { linkKeysItem } from './settings-storage';

/**
 * The key of each end-to-end push made here, so that History's "Copy link" gives the whole link
 * (the server's records hold the link without its key, which it never had). Kept in local
 * storage only (never synced), keyed by a hash of the URL token like the kind memory; the
 * oldest are dropped beyond a bound.
 */
const MAX_REMEMBERED = 500;

export async function rememberLinkKey(urlToken: string, linkKey: string): Promise<void> {
  const key = await tokenKey(urlToken);
  const entries = Object.entries(await linkKeysItem.getValue()).filter(([k]) => k !== key);
  entries.push([key, linkKey]);
  await linkKeysItem.setValue(Object.fromEntries(entries.slice(-MAX_REMEMBERED)));
}

/** The push's link with its key when this extension made it end to end, else the link as it is. */
export async function wholeLink(record: { url_token: string; html_url: string }): Promise<string> {
  if (record.html_url.includes('#')) return record.html_url;
  const linkKey = (await linkKeysItem.getValue())[await tokenKey(record.url_token)];
  return linkKey ? `${record.html_url}#${linkKey}` : record.html_url;
}
