/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord } from '../../../../shared/push-schema.js';
import { useLanguage } from '../i18n/i18n-context.js';

/** Rows the dashboard's card lists; a longer batch links to its own page (BatchRowsPage), which lists them all. */
export const BATCH_CARD_ROWS = 25;

export const batchRowsLink = (batchId: string, page = 1) => `/dashboard/batch/${encodeURIComponent(batchId)}${page > 1 ? `?page=${page}` : ''}`;

/**
 * A batch (one link per recipient) on its owner's dashboard: one card for all its pushes, with
 * when it was made, the options every row got (its release time too), how many recipients have
 * opened theirs, and, folded, the first rows' names (the owner's own label, opened for them only)
 * and whether and when each was opened; a longer batch links to the page of all its rows. The
 * links themselves are not listed: the sender's CSV is their copy.
 */
export function BatchGroupCard({ rows }: { rows: OwnerPushRecord[] }) {
  const { t } = useLanguage();
  const first = rows[0];
  if (!first) return null;
  const opened = rows.filter((r) => r.first_viewed_at).length;
  return (
    <article class="card push-card batch-group" data-batch-id={first.batch_id}>
      <header class="row spread">
        <h2>{t('dashboard.batch.heading', { count: rows.length })}</h2>
        <span class="badge active" data-batch-opened>
          {t('dashboard.batch.opened', { opened, total: rows.length })}
        </span>
      </header>
      <BatchFacts first={first} />
      <details>
        <summary>{t('dashboard.batch.rows')}</summary>
        <BatchRowsTable rows={rows.slice(0, BATCH_CARD_ROWS)} />
        {rows.length > BATCH_CARD_ROWS && (
          <p>
            <a href={batchRowsLink(first.batch_id!)} data-batch-all-rows>
              {t('dashboard.batch.allRows', { count: rows.length })}
            </a>
          </p>
        )}
      </details>
    </article>
  );
}

/** The options every row of a batch got (they were made with the same ones), from its first row. */
export function BatchFacts({ first }: { first: OwnerPushRecord }) {
  const { t, date } = useLanguage();
  const facts = [
    t('dashboard.created', { date: date(first.created_at) }),
    ...(first.not_before ? [t('dashboard.opensFrom', { date: date(first.not_before) })] : []),
    t('dashboard.days', { count: first.expire_after_days }),
    t('dashboard.views', { count: first.expire_after_views }),
    ...(first.passphrase ? [t('dashboard.passphraseSet')] : []),
  ];
  return <p class="muted small">{facts.join(' · ')}</p>;
}

export function BatchRowsTable({ rows }: { rows: OwnerPushRecord[] }) {
  const { t, date } = useLanguage();
  return (
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
  );
}
