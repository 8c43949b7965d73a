import type { Change } from './journal.js';

/**
 * A copy of a stored record that a change function may edit freely: the stored one must stay as
 * it is until the change is durable (and for ever, if it is refused). Records are JSON data
 * (they come from the journal, or from the services through schemas), so a plain deep copy
 * does; structuredClone, which serialises, cost 3.1–3.5 µs a push against 0.13–0.19 µs.
 */
export function editableCopy<T>(record: T): T {
  if (typeof record !== 'object' || record === null) return record;
  if (Array.isArray(record)) return record.map(editableCopy) as T;
  const copy = { ...record } as Record<string, unknown>;
  for (const field in copy) {
    const value = copy[field];
    if (typeof value === 'object' && value !== null) copy[field] = editableCopy(value);
  }
  return copy as T;
}

/**
 * The journal change that turns a stored record into its next version: only the top-level
 * fields that differ (a merge), or the whole record when a field was removed. A view changes
 * three small fields of a push; writing the whole record each time cost its serialisation, a
 * kilobyte of journal per view (and compactions that often), and one more copy on disk of the
 * push's ciphertext per view. Undefined when nothing changed.
 */
export function recordChange(collection: string, key: string, before: object, after: object): Change | undefined {
  const old = before as Record<string, unknown>;
  const next = after as Record<string, unknown>;
  for (const field in old) if (!Object.hasOwn(next, field)) return { c: collection, k: key, v: next };
  const fields: Record<string, unknown> = {};
  let changed = false;
  for (const field in next) {
    if (!sameValue(old[field], next[field])) {
      fields[field] = next[field];
      changed = true;
    }
  }
  return changed ? { c: collection, k: key, m: fields } : undefined;
}

/** Records hold JSON values: nested ones (a push's file list) are compared as JSON. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
