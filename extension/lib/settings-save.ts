import { serverLocked } from './managed-policy';
import { cleanDefaults } from './push-defaults';
import { storageKeys, type Settings } from './settings-storage';
import { storageArea } from './storage-item';

// Only Settings (the options page) writes the settings: in a module of its own, this code is not
// in the popup's chunks (−0.16 KB gzipped, scripts/bundle-size.ts).

/** `sync:serverUrl` → ['sync', 'serverUrl'] */
function area(key: string): [area: 'sync' | 'local', name: string] {
  const [a, name] = key.split(':') as ['sync' | 'local', string];
  return [a, name];
}

/**
 * Writes the settings with the storage calls issued before this function returns (no await
 * before them): the popup may be closed by the browser's permission prompt the moment after
 * the click, and a write that was never issued would be lost. Cached server info names its
 * server, so info about another server is ignored rather than deleted here.
 */
export function saveSettings(settings: Settings): Promise<void> {
  // What the policy sets is not the user's: it is not written as theirs (it would outlive the policy).
  const ownDefaults: Record<string, unknown> = { ...cleanDefaults(settings.defaults) };
  for (const key of Object.keys(settings.policy?.pushDefaults ?? {})) delete ownDefaults[key];
  const values: Record<string, unknown> = {
    [storageKeys.pushDefaults]: ownDefaults,
    [storageKeys.apiToken]: settings.apiToken.trim(),
    [storageKeys.tokenOrigin]: settings.tokenOrigin ?? '',
  };
  if (!serverLocked(settings.policy)) values[storageKeys.serverUrl] = settings.serverUrl.trim();
  const byArea: Record<'sync' | 'local', Record<string, unknown>> = { sync: {}, local: {} };
  for (const [key, value] of Object.entries(values)) {
    const [a, name] = area(key);
    byArea[a][name] = value;
  }
  return Promise.all([storageArea('sync').set(byArea.sync), storageArea('local').set(byArea.local)]).then(() => undefined);
}
