/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { CSRF_FIELD } from '../middleware/session.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { MessageKey } from './i18n/messages/en.js';
import { translateFieldMessage } from './i18n/service-messages.js';

/** The hidden CSRF field every POST form carries. */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

/** A table row's one-button action (revoke, remove, close): a small POST form naming the row by one hidden field. */
export function RowAction({ action, csrfToken, name, value, label }: { action: string; csrfToken: string; name: string; value: string; label: string }) {
  return (
    <form method="post" action={action} class="inline">
      <CsrfField token={csrfToken} />
      <input type="hidden" name={name} value={value} />
      <button type="submit" class="danger small">
        {label}
      </button>
    </form>
  );
}

/**
 * A button that copies the text of the element with id `target` (assets/pages.js); what the
 * script then says is given to it in the page's language.
 */
export function CopyButton({ target, label, primary = false }: { target: string; label?: string; primary?: boolean }) {
  const { t } = useLanguage();
  return (
    <button type="button" class={primary ? undefined : 'secondary'} data-copy={target} data-copied={t('common.copied')} data-copy-failed={t('common.copyByHand')} hidden>
      {label ?? t('common.copy')}
    </button>
  );
}

/** Hides or shows the text of the element with id `target` (assets/pages.js), e.g. a secret read over someone's shoulder. */
export function HideToggle({ target }: { target: string }) {
  const { t } = useLanguage();
  return (
    <button type="button" class="secondary" data-toggle={target} data-show-label={t('common.show')} data-hide-label={t('common.hide')} aria-controls={target} aria-pressed="false" hidden>
      {t('common.hide')}
    </button>
  );
}

/** A value to hand on (a secret link, an API token) in a box, with its copy button and the script's answer beside it. */
export function CopyableValue({ id, value, copyLabel, primary = false }: { id: string; value: string; copyLabel: string; primary?: boolean }) {
  return (
    <>
      <p class="link-box">
        <code id={id}>{value}</code>
      </p>
      <div class="row">
        <CopyButton target={id} label={copyLabel} primary={primary} />
        <span class="muted" data-copy-status aria-live="polite"></span>
      </div>
    </>
  );
}

/** The messages of one field from a validation error (`{field: [messages]}`). */
export function FieldErrors({ errors, field }: { errors?: Record<string, string[]>; field: string }) {
  const { t } = useLanguage();
  const messages = errors?.[field];
  if (!messages?.length) return null;
  return (
    <p class="error field-error" id={`${field}-error`} role="alert">
      {messages.map((m) => `${fieldName(t, field)} ${translateFieldMessage(t, m)}`).join(' · ')}
    </p>
  );
}

/** A field's name as the form shows it (validation messages from the service follow it). */
function fieldName(t: ReturnType<typeof useLanguage>['t'], field: string): string {
  const key = `field.${field}` as MessageKey;
  const name = t(key);
  return name === key ? field : name;
}

/** Errors for fields the form does not show, so that no message is lost. */
export function OtherErrors({ errors, shown }: { errors?: Record<string, string[]>; shown: string[] }) {
  const { t } = useLanguage();
  if (!errors) return null;
  const rest = Object.entries(errors).filter(([f]) => !shown.includes(f));
  if (!rest.length) return null;
  return (
    <div class="notice error" role="alert">
      {rest.map(([f, m]) => (
        <p>{`${fieldName(t, f)} ${m.map((one) => translateFieldMessage(t, one)).join(', ')}`}</p>
      ))}
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'error' | 'ok'; children: ComponentChildren }) {
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** Marks an end-to-end push (its link needs the key only its sender had), wherever it is listed. */
export function EndToEndBadge() {
  const { t } = useLanguage();
  return <span class="badge e2e">{t('push.endToEnd.badge')}</span>;
}
