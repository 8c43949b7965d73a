/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { useLanguage } from './i18n/i18n-context.js';

/**
 * A date and time the sender types in their own time zone, sent to the API as an instant.
 * The visible `datetime-local` input carries no zone; local-time.js (pages/browser/local-time.ts)
 * fills the hidden `field` with the ISO 8601 instant it means in the browser's zone. Without
 * scripts the hidden field stays empty and the route reads the visible input as UTC, which
 * `LocalTimeZoneNote` says (and scripts rewrite it with the browser's zone name).
 */
export function LocalTimeInput({ id, field, value, describedBy, invalid }: {
  /** The visible input's id and form name. */
  id: string;
  /** The API field the hidden input posts, e.g. `push[not_before]`. */
  field: string;
  value: string;
  /** Ids that describe the input (its hint; its error first when invalid). */
  describedBy: string;
  invalid: boolean;
}) {
  return (
    <>
      <input type="datetime-local" id={id} name={id} value={value} {...(invalid ? { 'aria-invalid': true as const } : {})} aria-describedby={describedBy} />
      <input type="hidden" name={field} value="" data-local-time-of={id} />
    </>
  );
}

/** "Times are in UTC" — rewritten by local-time.js with the browser's time zone. */
export function LocalTimeZoneNote() {
  const { t } = useLanguage();
  return (
    <span data-time-zone data-time-zone-template={t('create.timeZone', { zone: '{zone}' })}>
      {t('create.timeZone', { zone: 'UTC' })}
    </span>
  );
}
