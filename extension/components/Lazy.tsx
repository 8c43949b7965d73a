import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';

/**
 * A view whose code is loaded when first shown. Keeps the popup's first paint small: Settings
 * (first run) and History share one chunk (lazy-views.ts).
 */
export function Lazy<P extends object>({ load, props }: { load: () => Promise<ComponentType<P>>; props: P }) {
  const [View, setView] = useState<ComponentType<P> | null>(null);
  useEffect(() => {
    let live = true;
    void load().then((component) => live && setView(() => component));
    return () => {
      live = false;
    };
  }, [load]);
  return View ? <View {...props} /> : <p class="loading" role="status">{t('loading')}</p>;
}
