import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import type { StorageItem } from '../lib/storage-item';
import { CheckField } from './Field';

/**
 * The opt-in for "first opened" notifications (lib/open-watch.ts). Saved as soon as it is
 * toggled: the background's alarm follows the stored value.
 */
export function NotifyOpenedField({ item }: { item: StorageItem<boolean> }) {
  const [on, setOn] = useState<boolean | null>(null);
  useEffect(() => {
    void item.getValue().then(setOn, () => setOn(false));
  }, [item]);
  if (on === null) return null;
  return (
    <CheckField
      id="notify_opened"
      label={t('notify_opened_setting')}
      checked={on}
      onChange={(v) => {
        setOn(v);
        void item.setValue(v);
      }}
    />
  );
}
