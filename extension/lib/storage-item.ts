import { browser } from 'wxt/browser';

/**
 * One typed value in `browser.storage`, named `area:key` (`sync:serverUrl`). The browser's
 * storage API is all the extension needs; WXT's storage layer (versions, migrations, metadata,
 * locks) cost the popup 3 KB gzipped for features it does not use.
 */
export interface StorageItem<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Calls back on every change, from any page of the extension; returns the unwatch function. */
  watch(callback: (value: T) => void): () => void;
}

type Area = 'local' | 'sync' | 'session';

export function storageArea(area: Area) {
  const found = browser.storage[area];
  if (!found) throw new Error(`storage.${area} is not available in this browser`);
  return found;
}

export function defineItem<T>(name: string, fallback: T): StorageItem<T>;
export function defineItem<T>(name: string): StorageItem<T | null>;
export function defineItem<T>(name: string, fallback: T | null = null): StorageItem<T | null> {
  const [area, key] = name.split(':') as [Area, string];
  const orFallback = (value: unknown) => (value === undefined || value === null ? fallback : (value as T));
  return {
    getValue: async () => orFallback((await storageArea(area).get(key))[key]),
    setValue: async (value) => {
      await (value === null ? storageArea(area).remove(key) : storageArea(area).set({ [key]: value }));
    },
    removeValue: () => storageArea(area).remove(key),
    watch(callback) {
      const listener = (changes: Record<string, { newValue?: unknown }>, changedArea: string) => {
        if (changedArea === area && key in changes) callback(orFallback(changes[key].newValue));
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
  };
}
