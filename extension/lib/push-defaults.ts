/** The options a user may preset; a missing field means "the server's default". */
export interface PushDefaults {
  expire_after_days?: number;
  expire_after_views?: number;
  retrieval_step?: boolean;
  deletable_by_viewer?: boolean;
  /** Encrypt text and file pushes in the extension (docs/end-to-end-encryption.md); on unless false. */
  end_to_end?: boolean;
}

/** Keeps only well-formed fields, so a damaged or hand-edited value cannot break the form. */
export function cleanDefaults(value: unknown): PushDefaults {
  const out: PushDefaults = {};
  if (!value || typeof value !== 'object') return out;
  const v = value as Record<string, unknown>;
  for (const key of ['expire_after_days', 'expire_after_views'] as const) {
    if (typeof v[key] === 'number' && Number.isSafeInteger(v[key])) out[key] = v[key] as number;
  }
  for (const key of ['retrieval_step', 'deletable_by_viewer', 'end_to_end'] as const) {
    if (typeof v[key] === 'boolean') out[key] = v[key] as boolean;
  }
  return out;
}
