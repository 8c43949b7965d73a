import type { OwnerPushRecord } from '../../../../shared/push-schema.js';
import type { Translate } from '../i18n/translator.js';

/**
 * How the owner's pages name a push another one follows: its name (or its files), when it was
 * made, and the end of its link — enough to tell apart two pushes with the same name.
 */
export function pushLabel(t: Translate, date: (iso: string) => string, p: OwnerPushRecord): string {
  const name = p.name ?? (p.file_names?.length ? p.file_names.join(', ') : t('dashboard.untitled'));
  return t('linked.label', { name, created: date(p.created_at), tail: p.url_token.slice(-6) });
}
