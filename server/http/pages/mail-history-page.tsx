/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { GivenUpMail } from '../../mail/given-up-mails.js';
import { useLanguage } from './i18n/i18n-context.js';
import { GivenUpMailsTable } from './given-up-mails-table.js';

/** The account's given-up e-mails: to whom, which kind, when, the SMTP server's reply. Never a body. */
export function GivenUpMailsPage({ mails }: { mails: GivenUpMail[] }) {
  const { t } = useLanguage();
  return (
    <section class="card">
      <h1>{t('mails.heading')}</h1>
      <p class="muted">{t('mails.intro')}</p>
      {mails.length === 0 ? (
        <p class="muted">{t('mails.none')}</p>
      ) : (
        <GivenUpMailsTable mails={mails} label={t('mails.heading')} />
      )}
      <p>
        <a href="/users/token">{t('mails.back')}</a>
      </p>
    </section>
  );
}
