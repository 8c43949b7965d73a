/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { AuditEntry, OwnerPushRecord } from '../../../shared/push-schema.js';
import { BatchGroupCard } from './batch/batch-group.js';
import { EndToEndBadge, Notice } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { MessageKey } from './i18n/messages/en.js';
import { OpensAfter } from './linked/opens-after.js';

export interface DashboardEntry {
  push: OwnerPushRecord;
  logs: AuditEntry[];
}

/** Audit entries a page shows (the service's page size). */
const AUDIT_PAGE_SIZE = 50;
const auditLink = (token: string, page: number) => `/dashboard/audit/${token}?page=${page}`;

/** One page of a push's whole audit trail (none is ever dropped), with links to the others. */
export function AuditLogPage({ token, page, logs }: { token: string; page: number; logs: AuditEntry[] }) {
  const { t } = useLanguage();
  return (
    <section>
      <h1>{t('dashboard.audit.heading')}</h1>
      <p>
        <a href="/dashboard">{t('dashboard.audit.back')}</a>
      </p>
      <AuditTable logs={logs} />
      <nav class="row pager" aria-label={t('dashboard.pages')}>
        {page > 1 && <a href={auditLink(token, page - 1)}>{t('dashboard.audit.earlier')}</a>}
        <span class="muted">{t('dashboard.page', { page })}</span>
        {logs.length === AUDIT_PAGE_SIZE && <a href={auditLink(token, page + 1)}>{t('dashboard.audit.later')}</a>}
      </nav>
    </section>
  );
}

function AuditTable({ logs }: { logs: AuditEntry[] }) {
  const { t, date } = useLanguage();
  if (!logs.length) return <p class="muted">{t('dashboard.noEvents')}</p>;
  return (
    <div class="table-wrap">
      <table class="audit">
        <thead>
          <tr>
            <th>{t('dashboard.colEvent')}</th>
            <th>{t('dashboard.colWhen')}</th>
            <th>{t('dashboard.colIp')}</th>
            <th>{t('dashboard.colBrowser')}</th>
          </tr>
        </thead>
        <tbody>
          {logs.map((l) => (
            <tr>
              <td>{t(`dashboard.event.${l.kind}` as MessageKey)}</td>
              <td>{date(l.created_at)}</td>
              <td>{l.ip}</td>
              <td class="ua">{l.user_agent}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PushCard({ entry, followed }: { entry: DashboardEntry; followed: Map<string, OwnerPushRecord> }) {
  const { t, date } = useLanguage();
  const p = entry.push;
  const facts = [
    t('dashboard.created', { date: date(p.created_at) }),
    ...(p.not_before ? [t('dashboard.opensFrom', { date: date(p.not_before) })] : []),
    p.expired
      ? t('dashboard.expiredOn', { date: date(p.expired_on) })
      : t('dashboard.left', { days: t('dashboard.days', { count: p.days_remaining }), views: t('dashboard.views', { count: p.views_remaining }) }),
    ...(p.passphrase ? [t('dashboard.passphraseSet')] : []),
  ];
  // The read receipt: whether and when it was opened, how much of it is used, wrong guesses.
  const receipt = [
    p.first_viewed_at ? t('dashboard.firstOpened', { date: date(p.first_viewed_at) }) : t('dashboard.notOpened'),
    t('dashboard.viewsUsed', { used: p.expire_after_views - p.views_remaining, total: p.expire_after_views }),
    ...(p.failed_passphrase_attempts > 0 ? [t('dashboard.wrongPassphrases', { count: p.failed_passphrase_attempts })] : []),
    ...(p.max_failed_passphrase_attempts ? [t('dashboard.burnAfter', { count: p.max_failed_passphrase_attempts })] : []),
  ];
  return (
    <article class="card push-card">
      <header class="row spread">
        <h2>{p.name ?? (p.file_names?.length ? p.file_names.join(', ') : t('dashboard.untitled'))}</h2>
        <span class="row">
          {p.end_to_end && <EndToEndBadge />}
          <span class={`badge ${p.expired ? 'expired' : 'active'}`}>
            {t(p.expired ? (p.deleted ? 'dashboard.state.deleted' : 'dashboard.state.expired') : 'dashboard.state.active')}
          </span>
        </span>
      </header>
      <p class="muted small">{facts.join(' · ')}</p>
      <p class="small receipt">{receipt.join(' · ')}</p>
      <OpensAfter push={p} first={p.follows ? followed.get(p.follows) : undefined} />
      {/* An end-to-end push's link without its key opens nothing: never offered as the link to send. */}
      {!p.expired &&
        (p.end_to_end ? (
          <p class="muted small">{t('dashboard.endToEnd.keyless')}</p>
        ) : (
          <p class="link-box">
            <code>{p.html_url}</code>
          </p>
        ))}
      {p.note && <p class="note">{p.note}</p>}
      {!p.expired && (
        <p>
          <a class="button danger small" href={`/p/${p.url_token}/expire`}>
            {t('expire.button')}
          </a>
        </p>
      )}
      <details>
        <summary>{entry.logs.length === AUDIT_PAGE_SIZE ? t('dashboard.audit.firstEvents', { count: AUDIT_PAGE_SIZE }) : t('dashboard.auditLog', { count: entry.logs.length })}</summary>
        <AuditTable logs={entry.logs} />
        {entry.logs.length === AUDIT_PAGE_SIZE && (
          <p>
            <a href={auditLink(p.url_token, 2)}>{t('dashboard.audit.more')}</a>
          </p>
        )}
      </details>
    </article>
  );
}

export function DashboardPage({
  state,
  page,
  entries,
  hasMore,
  expiredNow = false,
  welcome = false,
  batches = new Map(),
  followed = new Map(),
}: {
  state: 'active' | 'expired';
  page: number;
  entries: DashboardEntry[];
  hasMore: boolean;
  /** Back from "Expire now": say it was done. */
  expiredNow?: boolean;
  /** Just signed up. */
  welcome?: boolean;
  /** Every push of each batch whose card is on this page (batch-placement.ts), by batch id: one group where its first push of the page is. */
  batches?: Map<string, OwnerPushRecord[]>;
  /** Linked secrets: the pushes that pushes of this page follow, by push_id ("opens after …"). */
  followed?: Map<string, OwnerPushRecord>;
}) {
  const { t } = useLanguage();
  const link = (s: string, n: number) => `/dashboard?state=${s}&page=${n}`;
  return (
    <section>
      <h1>{t('dashboard.heading')}</h1>
      {welcome && <Notice>{t('dashboard.welcome')}</Notice>}
      {expiredNow && <Notice kind="ok">{t('dashboard.expiredNow')}</Notice>}
      <nav class="tabs" aria-label={t('dashboard.tabs')}>
        <a href={link('active', 1)} aria-current={state === 'active' ? 'page' : undefined}>
          {t('dashboard.active')}
        </a>
        <a href={link('expired', 1)} aria-current={state === 'expired' ? 'page' : undefined}>
          {t('dashboard.expired')}
        </a>
        <a href="/">{t('dashboard.new')}</a>
      </nav>
      {entries.length === 0 ? (
        <p class="muted">{t(page > 1 ? 'dashboard.noMore' : state === 'active' ? 'dashboard.noActive' : 'dashboard.noExpired')}</p>
      ) : (
        entries.map((e, i) => {
          const batch = e.push.batch_id;
          if (!batch) return <PushCard entry={e} followed={followed} />;
          // A batch whose card is on another page: its pushes here are in that card.
          if (!batches.has(batch)) return null;
          return entries.findIndex((x) => x.push.batch_id === batch) === i ? <BatchGroupCard rows={batches.get(batch)!} /> : null;
        })
      )}
      <nav class="row pager" aria-label={t('dashboard.pages')}>
        {page > 1 && <a href={link(state, page - 1)}>{t('dashboard.newer')}</a>}
        <span class="muted">{t('dashboard.page', { page })}</span>
        {hasMore && page < 200 && <a href={link(state, page + 1)}>{t('dashboard.older')}</a>}
      </nav>
    </section>
  );
}
