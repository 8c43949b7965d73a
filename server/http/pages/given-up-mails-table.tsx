/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { GivenUpMail } from '../../mail/given-up-mails.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { MessageKey } from './i18n/messages/en.js';

/** A kind the page has no words for (a newer server's) is shown as it is stored. */
function kindLabel(t: (key: MessageKey) => string, kind: string): string {
  const key = `mails.kind.${kind}` as MessageKey;
  const label = t(key);
  return label === key ? kind : label;
}

/**
 * Given-up e-mails as a table: when, (the account,) to whom, which kind, the SMTP server's reply.
 * Never a subject or body. Shared by the account's page and the administration's, which adds the
 * account column.
 */
export function GivenUpMailsTable({ mails, withAccount = false, label }: { mails: (GivenUpMail & { account?: string | null })[]; withAccount?: boolean; label: string }) {
  const { t, date } = useLanguage();
  return (
    <div class="table-wrap" tabindex={0} role="region" aria-label={label}>
      <table class="given-up-mails">
        <thead>
          <tr>
            <th>{t('mails.when')}</th>
            {withAccount && <th>{t('admin.mails.account')}</th>}
            <th>{t('mails.to')}</th>
            <th>{t('mails.kind')}</th>
            <th>{t('mails.reply')}</th>
          </tr>
        </thead>
        <tbody>
          {mails.map((m) => (
            <tr data-kind={m.kind}>
              <td>{date(m.lastAttemptAt ?? m.createdAt)}</td>
              {withAccount && <td>{m.account ?? '—'}</td>}
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
  );
}
