/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { GivenUpMail } from '../../mail/given-up-mails.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { MessageKey } from './i18n/messages/en.js';

/** A kind the page has no words for (a newer server's) is shown as it is stored. */
export function kindLabel(t: (key: MessageKey) => string, kind: string): string {
  const key = `mails.kind.${kind}` as MessageKey;
  const label = t(key);
  return label === key ? kind : label;
}

/** The account's given-up e-mails: to whom, which kind, when, the SMTP server's reply. Never a body. */
export function GivenUpMailsPage({ mails }: { mails: GivenUpMail[] }) {
  const { t, date } = useLanguage();
  return (
    <section class="card">
      <h1>{t('mails.heading')}</h1>
      <p class="muted">{t('mails.intro')}</p>
      {mails.length === 0 ? (
        <p class="muted">{t('mails.none')}</p>
      ) : (
        <table class="given-up-mails">
          <thead>
            <tr>
              <th>{t('mails.when')}</th>
              <th>{t('mails.to')}</th>
              <th>{t('mails.kind')}</th>
              <th>{t('mails.reply')}</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((m) => (
              <tr>
                <td>{date(m.lastAttemptAt ?? m.createdAt)}</td>
                <td>{m.to.join(', ')}</td>
                <td>{kindLabel(t, m.kind)}</td>
                <td>
                  <code>{m.reply ?? ''}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href="/users/token">{t('mails.back')}</a>
      </p>
    </section>
  );
}
