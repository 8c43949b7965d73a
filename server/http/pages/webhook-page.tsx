/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { webhookEventTypes, type CreatedWebhook, type Webhook, type WebhookDelivery } from '../../../shared/webhook-schema.js';
import { CopyableValue, CsrfField, FieldErrors, Notice, RowAction } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { MessageKey } from './i18n/messages/en.js';
import { describeDeliveryError } from './i18n/service-messages.js';

const eventKey = (type: string) => `webhooks.event.${type}` as MessageKey;

function LastDelivery({ d }: { d: WebhookDelivery | null }) {
  const { t, date } = useLanguage();
  if (!d) return <span class="muted">{t('webhooks.never')}</span>;
  const parts = [t(eventKey(d.type)), t(`webhooks.state.${d.state}` as MessageKey)];
  if (d.last_status !== null) parts.push(t('webhooks.httpStatus', { status: d.last_status }));
  else if (d.last_error) parts.push(/^HTTP \d{3}$/.test(d.last_error) ? d.last_error : describeDeliveryError(t, d.last_error));
  if (d.last_attempt_at) parts.push(date(d.last_attempt_at));
  return <span class={`delivery ${d.state}`}>{parts.join(' · ')}</span>;
}

/** The account's webhook endpoints: add one (URL, events), see each one's last delivery, remove. */
export function WebhooksPage({ hooks, csrfToken, notice, errors, url }: { hooks: Webhook[]; csrfToken: string; notice?: string; errors?: Record<string, string[]>; url?: string }) {
  const { t } = useLanguage();
  return (
    <>
      <section class="card">
        <h1>{t('webhooks.heading')}</h1>
        <p class="muted">{t('webhooks.intro')}</p>
        {notice && <Notice kind="ok">{notice}</Notice>}
        <form method="post" action="/users/webhooks" class="stack">
          <CsrfField token={csrfToken} />
          <label for="webhook-url">{t('webhooks.url')}</label>
          <input type="url" id="webhook-url" name="url" required maxLength={2048} value={url ?? ''} />
          <FieldErrors errors={errors} field="url" />
          <fieldset>
            <legend>{t('webhooks.events')}</legend>
            {webhookEventTypes.map((type) => (
              <label class="choice">
                <input type="checkbox" name="events" value={type} checked />
                {t(eventKey(type))}
              </label>
            ))}
          </fieldset>
          <FieldErrors errors={errors} field="events" />
          <button type="submit" id="add-webhook">
            {t('webhooks.add')}
          </button>
        </form>
      </section>
      <section class="card">
        <h2>{t('webhooks.yours')}</h2>
        {hooks.length === 0 ? (
          <p class="muted">{t('webhooks.none')}</p>
        ) : (
          <div class="table-wrap">
            <table class="webhooks">
              <thead>
                <tr>
                  <th>{t('webhooks.colUrl')}</th>
                  <th>{t('webhooks.events')}</th>
                  <th>{t('webhooks.colLast')}</th>
                  <th>
                    <span class="sr-only">{t('webhooks.colAction')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {hooks.map((h) => (
                  <tr data-webhook={h.id}>
                    <td>
                      <code>{h.url}</code>
                    </td>
                    <td>{h.events.map((e) => t(eventKey(e))).join(', ')}</td>
                    <td>
                      <LastDelivery d={h.last_delivery} />
                    </td>
                    <td>
                      <RowAction action="/users/webhooks/remove" csrfToken={csrfToken} name="id" value={h.id} label={t('webhooks.remove')} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

/** Shown once after adding: the signing secret. */
export function WebhookMadePage({ hook }: { hook: CreatedWebhook }) {
  const { t } = useLanguage();
  return (
    <section class="card">
      <h1>{t('webhooks.made.heading')}</h1>
      <p>
        <code>{hook.url}</code>
      </p>
      <Notice kind="info">{t('webhooks.made.secret')}</Notice>
      <CopyableValue id="webhook-secret" value={hook.secret} copyLabel={t('webhooks.made.copy')} />
      <p>
        <a href="/users/webhooks">{t('webhooks.made.back')}</a>
      </p>
    </section>
  );
}
