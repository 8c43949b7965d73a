/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { FieldErrors } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import { LocalTimeInput, LocalTimeZoneNote } from './local-time-input.js';

/**
 * Scheduled release (issue 35): what a recipient sees before the push opens. No view was
 * counted. The time is written in UTC; local-time.js (pages/browser/local-time.ts) rewrites it in
 * the reader's time zone, so without scripts the page is still right, only in UTC.
 */
export function NotYetOpenPage({ opensAt }: { opensAt: string }) {
  const { t, date } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('recipient.notYet.heading')}</h1>
      <p>
        {t('recipient.notYet.opensAt')}{' '}
        <strong>
          <time datetime={opensAt} data-local-time id="opens-at">
            {date(opensAt)}
          </time>
        </strong>
      </p>
      <p>{t('recipient.notYet.body')}</p>
      <p>
        <a href="/">{t('common.sendYourOwn')}</a>
      </p>
    </section>
  );
}

/**
 * The create form's release time. The visible input is a local date and time; local-time.js
 * fills `push[not_before]` with the moment it means in the sender's time zone. Without scripts
 * that stays empty and the page reads the input as UTC (releaseFromForm), which the hint says.
 */
export function ReleaseField({ value, fromRelease, errors }: { value: string; fromRelease: boolean; errors?: Record<string, string[]> }) {
  const { t } = useLanguage();
  const invalid = Boolean(errors?.not_before?.length);
  return (
    <div class="release">
      <label for="release_at">{t('create.releaseAt')}</label>
      <LocalTimeInput id="release_at" field="push[not_before]" value={value} invalid={invalid} describedBy={invalid ? 'not_before-error release-hint' : 'release-hint'} />
      <FieldErrors errors={errors} field="not_before" />
      <input type="hidden" name="push[expire_from_release]" value="false" />
      <label class="choice">
        <input type="checkbox" name="push[expire_from_release]" value="true" checked={fromRelease} />
        {t('create.expireFromRelease')}
      </label>
      <p class="muted small hint" id="release-hint">
        {t('create.releaseHint')} <LocalTimeZoneNote />
      </p>
    </div>
  );
}
