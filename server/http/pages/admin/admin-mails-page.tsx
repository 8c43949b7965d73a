/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { AdminGivenUpMail } from '../../../mail/given-up-mails.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { GivenUpMailsTable } from '../given-up-mails-table.js';
import { AdminFrame, Pager } from './admin-pages.js';

/** Every account's given-up e-mails: the account, to whom, which kind, when, the SMTP server's reply. Never a subject or body. */
export function AdminGivenUpMailsPage({ mails, page, more }: { mails: AdminGivenUpMail[]; page: number; more: boolean }) {
  const { t } = useLanguage();
  return (
    <AdminFrame current="/admin/mails" heading="title.adminMails">
      <p class="muted">{t('admin.mails.intro')}</p>
      {mails.length === 0 ? (
        <p class="muted">{t('admin.mails.none')}</p>
      ) : (
        <GivenUpMailsTable mails={mails} withAccount label={t('title.adminMails')} />
      )}
      <Pager path="/admin/mails" page={page} more={more} />
    </AdminFrame>
  );
}
