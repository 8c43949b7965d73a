/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord } from '../../../../shared/push-schema.js';
import { useLanguage } from '../i18n/i18n-context.js';

/**
 * A batch (one link per recipient) on its owner's dashboard: one card for all its pushes, with
 * when it was made, the options every row got, how many recipients have opened theirs, and,
 * folded, each row's name (the owner's own label, opened for them only) and whether and when it
 * was opened. The links themselves are not listed: the sender's CSV is their copy.
 */
export function BatchGroupCard({ rows }: { rows: OwnerPushRecord[] }) {
  const { t, date } = useLanguage();
  const first = rows[0];
  if (!first) return null;
  const opened = rows.filter((r) => r.first_viewed_at).length;
  const facts = [
    t('dashboard.created', { date: date(first.created_at) }),
    t('dashboard.days', { count: first.expire_after_days }),
    t('dashboard.views', { count: first.expire_after_views }),
    ...(first.passphrase ? [t('dashboard.passphraseSet')] : []),
  ];
  return (
    <article class="card push-card batch-group" data-batch-id={first.batch_id}>
      <header class="row spread">
        <h2>{t('dashboard.batch.heading', { count: rows.length })}</h2>
        <span class="badge active" data-batch-opened>
          {t('dashboard.batch.opened', { opened, total: rows.length })}
        </span>
      </header>
      <p class="muted small">{facts.join(' · ')}</p>
      <details>
        <summary>{t('dashboard.batch.rows')}</summary>
        <div class="table-wrap">
          <table class="audit">
            <thead>
              <tr>
                <th>{t('batch.col.name')}</th>
                <th>{t('dashboard.batch.colOpened')}</th>
                <th>{t('batch.col.status')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr data-batch-row>
                  <td>{r.name ?? t('dashboard.untitled')}</td>
                  <td>{r.first_viewed_at ? date(r.first_viewed_at) : t('dashboard.notOpened')}</td>
                  <td>{t(r.expired ? (r.deleted ? 'dashboard.state.deleted' : 'dashboard.state.expired') : 'dashboard.state.active')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </article>
  );
}
