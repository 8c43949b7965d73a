/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord } from '../../../../shared/push-schema.js';
import { FieldErrors } from '../components.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { LocalTimeInput, LocalTimeZoneNote } from '../local-time-input.js';
import { pushLabel } from './push-label.js';

/** What the sender chose last time, shown again when the form comes back with an error. */
export interface FollowsValues {
  /** The chosen push's URL token, or empty. */
  follows: string;
  /** A pasted link (wins over the choice). */
  follows_link: string;
  /** The form's local date and time for follows_until, or empty. */
  follows_until_at: string;
}

/**
 * Linked secrets (issue 35 item 3) on the create form, for signed-in senders: the push this one
 * opens after — one of their latest active pushes, or a pasted link of theirs — and an optional
 * time from which it opens anyway. Posted as the API's `push[follows]`/`push[follows_until]`;
 * the service checks them (the list is only a convenience). The time works as the release
 * time does: local-time.js fills the hidden field; without scripts it is read as UTC.
 */
export function FollowsField({ choices, values, errors }: { choices: OwnerPushRecord[]; values: FollowsValues; errors?: Record<string, string[]> }) {
  const { t, date } = useLanguage();
  const untilInvalid = Boolean(errors?.follows_until?.length);
  return (
    <fieldset class="follows stack">
      <legend>{t('linked.opensAfter')}</legend>
      <label for="follows">{t('linked.choose')}</label>
      <select id="follows" name="push[follows]" {...(errors?.follows?.length ? { 'aria-invalid': true as const, 'aria-describedby': 'follows-error' } : {})}>
        <option value="">{t('linked.none')}</option>
        {choices.map((p) => (
          <option value={p.url_token} selected={values.follows === p.url_token}>
            {pushLabel(t, date, p)}
          </option>
        ))}
      </select>
      <label for="follows_link">{t('linked.pasteLink')}</label>
      <input type="text" id="follows_link" name="follows_link" value={values.follows_link} autocomplete="off" spellcheck={false} />
      <FieldErrors errors={errors} field="follows" />
      <label for="follows_until_at">{t('linked.orFrom')}</label>
      <LocalTimeInput id="follows_until_at" field="push[follows_until]" value={values.follows_until_at} invalid={untilInvalid} describedBy={untilInvalid ? 'follows_until-error follows-hint' : 'follows-hint'} />
      <FieldErrors errors={errors} field="follows_until" />
      <p class="muted small hint" id="follows-hint">
        {t('linked.hint')} <LocalTimeZoneNote />
      </p>
    </fieldset>
  );
}
