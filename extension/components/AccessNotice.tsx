import { t } from '../lib/i18n';
import { Notice } from './Field';

/** The extension may not reach the saved server yet: say so and offer the browser's prompt. */
export function AccessNotice({ origin, onAllow }: { origin: string; onAllow(): void }) {
  return (
    <Notice tone="error">
      <p>{t('access_not_allowed', origin)}</p>
      <button type="button" onClick={onAllow}>
        {t('allow_access', origin)}
      </button>
    </Notice>
  );
}
