/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord } from '../../../../shared/push-schema.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { BatchFacts, batchRowsLink, BatchRowsTable } from './batch-group.js';

/** Rows a page of a batch lists (as many as a dashboard page lists pushes): a 1,000-row batch is twenty pages. */
export const BATCH_ROWS_PAGE_SIZE = 50;

/**
 * All rows of one of the owner's batches, a page at a time, in the order made: linked from the
 * dashboard's card when the batch has more rows than the card lists.
 */
export function BatchRowsPage({ rows, page }: { rows: OwnerPushRecord[]; page: number }) {
  const { t } = useLanguage();
  const first = rows[0]!;
  const shown = rows.slice((page - 1) * BATCH_ROWS_PAGE_SIZE, page * BATCH_ROWS_PAGE_SIZE);
  const opened = rows.filter((r) => r.first_viewed_at).length;
  return (
    <section class="batch-rows" data-batch-id={first.batch_id}>
      <h1>{t('dashboard.batch.heading', { count: rows.length })}</h1>
      <p>
        <a href="/dashboard">{t('dashboard.audit.back')}</a>
      </p>
      <p>
        <span class="badge active" data-batch-opened>
          {t('dashboard.batch.opened', { opened, total: rows.length })}
        </span>
      </p>
      <BatchFacts first={first} />
      {shown.length ? <BatchRowsTable rows={shown} /> : <p class="muted">{t('dashboard.noMore')}</p>}
      <nav class="row pager" aria-label={t('dashboard.pages')}>
        {page > 1 && <a href={batchRowsLink(first.batch_id!, page - 1)}>{t('dashboard.audit.earlier')}</a>}
        <span class="muted">{t('dashboard.page', { page })}</span>
        {page * BATCH_ROWS_PAGE_SIZE < rows.length && <a href={batchRowsLink(first.batch_id!, page + 1)}>{t('dashboard.audit.later')}</a>}
      </nav>
    </section>
  );
}
