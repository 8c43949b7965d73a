/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord } from '../../../../shared/push-schema.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { pushLabel } from './push-label.js';

/**
 * "Opens after <push>" on the owner's pages (the created page, the dashboard) for a push that
 * follows another; `first` is that push as its owner sees it (absent when it is gone).
 */
export function OpensAfter({ push, first }: { push: OwnerPushRecord; first?: OwnerPushRecord }) {
  const { t, date } = useLanguage();
  if (!push.follows) return null;
  const label = first ? pushLabel(t, date, first) : t('linked.gone');
  return (
    <p class="small opens-after" data-opens-after={push.follows}>
      {push.follows_until ? t('linked.opensAfterUntil', { label, until: date(push.follows_until) }) : t('linked.opensAfterLabel', { label })}
    </p>
  );
}
