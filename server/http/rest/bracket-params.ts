/**
 * Rails-style bracket keys (`push[payload]`, `push[files][]`) → nested objects, as Password
 * Pusher's form and multipart clients send them. Keys that could pollute prototypes are dropped.
 */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
const MAX_DEPTH = 4;

export type Params = { [key: string]: string | string[] | Params };

export function splitKey(key: string): string[] | null {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) return null;
  const parts = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
  if (parts.length > MAX_DEPTH + 1 || parts.some((p) => FORBIDDEN.has(p))) return null;
  return parts;
}

export function setParam(target: Params, key: string, value: string): void {
  const parts = splitKey(key);
  if (!parts) return;
  let node: Params = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const next = parts[i + 1];
    if (last) {
      if (part === '') return; // `a[]` handled by the parent step
      node[part] = value;
      return;
    }
    if (next === '' && i + 1 === parts.length - 1) {
      const existing = node[part];
      node[part] = Array.isArray(existing) ? [...existing, value] : [value];
      return;
    }
    const child = node[part];
    if (typeof child !== 'object' || Array.isArray(child)) node[part] = Object.create(null) as Params;
    node = node[part] as Params;
  }
}

export function paramsFromEntries(entries: Iterable<[string, string]>): Params {
  const out = Object.create(null) as Params;
  for (const [k, v] of entries) setParam(out, k, v);
  return out;
}
