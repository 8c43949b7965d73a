/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { AdminGivenUpMail } from '../../../mail/given-up-mails.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { kindLabel } from '../mail-history-page.js';
import { AdminFrame, Pager } from './admin-pages.js';

/** Every account's given-up e-mails: the account, to whom, which kind, when, the SMTP server's reply. Never a subject or body. */
export function AdminGivenUpMailsPage({ mails, page, more }: { mails: AdminGivenUpMail[]; page: number; more: boolean }) {
  const { t, date } = useLanguage();
  return (
    <AdminFrame current="/admin/mails" heading="title.adminMails">
      <p class="muted">{t('admin.mails.intro')}</p>
      {mails.length === 0 ? (
        <p class="muted">{t('admin.mails.none')}</p>
      ) : (
        <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminMails')}>
          <table class="given-up-mails">
            <thead>
              <tr>
                <th>{t('mails.when')}</th>
                <th>{t('admin.mails.account')}</th>
                <th>{t('mails.to')}</th>
                <th>{t('mails.kind')}</th>
                <th>{t('mails.reply')}</th>
              </tr>
            </thead>
            <tbody>
              {mails.map((m) => (
                <tr data-kind={m.kind}>
                  <td>{date(m.lastAttemptAt ?? m.createdAt)}</td>
                  <td>{m.account ?? '—'}</td>
                  <td>{m.to.join(', ')}</td>
                  <td>{kindLabel(t, m.kind)}</td>
                  <td>
                    <code>{m.reply ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager path="/admin/mails" page={page} more={more} />
    </AdminFrame>
  );
}
