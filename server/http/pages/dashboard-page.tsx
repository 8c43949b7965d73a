/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { AuditEntry, OwnerPushRecord } from '../../../shared/push-schema.js';
import { formatDate, plural } from './components.js';

export interface DashboardEntry {
  push: OwnerPushRecord;
  logs: AuditEntry[];
}

const EVENT_LABELS: Record<string, string> = {
  creation: 'Created',
  view: 'Viewed',
  failed_view: 'Opened after expiry',
  expire: 'Expired',
  failed_passphrase: 'Wrong passphrase',
  owner_view: 'Viewed by you',
  admin_view: 'Viewed by an admin',
  edit: 'Edited',
};

/** Audit entries a page shows (the service's page size). */
const AUDIT_PAGE_SIZE = 50;
const auditLink = (token: string, page: number) => `/dashboard/audit/${token}?page=${page}`;

/** One page of a push's whole audit trail (none is ever dropped), with links to the others. */
export function AuditLogPage({ token, page, logs }: { token: string; page: number; logs: AuditEntry[] }) {
  return (
    <section>
      <h1>Audit log</h1>
      <p>
        <a href="/dashboard">← My pushes</a>
      </p>
      <AuditTable logs={logs} />
      <nav class="row pager" aria-label="Pages">
        {page > 1 && <a href={auditLink(token, page - 1)}>← Earlier</a>}
        <span class="muted">Page {page}</span>
        {logs.length === AUDIT_PAGE_SIZE && <a href={auditLink(token, page + 1)}>Later →</a>}
      </nav>
    </section>
  );
}

function AuditTable({ logs }: { logs: AuditEntry[] }) {
  if (!logs.length) return <p class="muted">No events.</p>;
  return (
    <div class="table-wrap">
      <table class="audit">
        <thead>
          <tr>
            <th>Event</th>
            <th>When</th>
            <th>IP</th>
            <th>Browser</th>
          </tr>
        </thead>
        <tbody>
          {logs.map((l) => (
            <tr>
              <td>{EVENT_LABELS[l.kind] ?? l.kind}</td>
              <td>{formatDate(l.created_at)}</td>
              <td>{l.ip}</td>
              <td class="ua">{l.user_agent}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PushCard({ entry }: { entry: DashboardEntry }) {
  const p = entry.push;
  return (
    <article class="card push-card">
      <header class="row spread">
        <h3>{p.name ?? 'Untitled push'}</h3>
        <span class={`badge ${p.expired ? 'expired' : 'active'}`}>{p.expired ? (p.deleted ? 'Deleted' : 'Expired') : 'Active'}</span>
      </header>
      <p class="muted small">
        Created {formatDate(p.created_at)}
        {p.expired
          ? ` · expired ${formatDate(p.expired_on)}`
          : ` · ${plural(p.days_remaining, 'day')} and ${plural(p.views_remaining, 'view')} left`}
        {p.passphrase ? ' · passphrase set' : ''}
      </p>
      {!p.expired && (
        <p class="link-box">
          <code>{p.html_url}</code>
        </p>
      )}
      {p.note && <p class="note">{p.note}</p>}
      <details>
        <summary>Audit log ({entry.logs.length === AUDIT_PAGE_SIZE ? `the first ${AUDIT_PAGE_SIZE} events` : plural(entry.logs.length, 'event')})</summary>
        <AuditTable logs={entry.logs} />
        {entry.logs.length === AUDIT_PAGE_SIZE && (
          <p>
            <a href={auditLink(p.url_token, 2)}>More events →</a>
          </p>
        )}
      </details>
    </article>
  );
}

export function DashboardPage({ state, page, entries, hasMore }: { state: 'active' | 'expired'; page: number; entries: DashboardEntry[]; hasMore: boolean }) {
  const link = (s: string, n: number) => `/dashboard?state=${s}&page=${n}`;
  return (
    <section>
      <h1>My pushes</h1>
      <nav class="tabs" aria-label="Push state">
        <a href={link('active', 1)} aria-current={state === 'active' ? 'page' : undefined}>
          Active
        </a>
        <a href={link('expired', 1)} aria-current={state === 'expired' ? 'page' : undefined}>
          Expired
        </a>
        <a href="/">New push</a>
      </nav>
      {entries.length === 0 ? (
        <p class="muted">{page > 1 ? 'No more pushes.' : state === 'active' ? 'You have no active pushes.' : 'You have no expired pushes.'}</p>
      ) : (
        entries.map((e) => <PushCard entry={e} />)
      )}
      <nav class="row pager" aria-label="Pages">
        {page > 1 && <a href={link(state, page - 1)}>← Newer</a>}
        <span class="muted">Page {page}</span>
        {hasMore && page < 200 && <a href={link(state, page + 1)}>Older →</a>}
      </nav>
    </section>
  );
}
