/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { auditKinds } from '../../../../shared/push-schema.js';
import type { AdminPushView, AdminUserView } from '../../../admin/admin-service.js';
import type { AdminLogEntry, InstanceAuditEntry, StoredInvite } from '../../../storage/admin-records.js';
import { CopyableValue, CsrfField, Notice, RowAction } from '../components.js';
import { useLanguage } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages/en.js';

const sections: [string, MessageKey][] = [
  ['/admin', 'admin.overview'],
  ['/admin/users', 'title.adminUsers'],
  ['/admin/pushes', 'title.adminPushes'],
  ['/admin/audit', 'title.adminAudit'],
  ['/admin/log', 'title.adminLog'],
  ['/admin/invites', 'title.adminInvites'],
  ['/admin/config', 'title.adminConfig'],
  ['/admin/mails', 'title.adminMails'],
];

function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/**
 * Tables sit in a scrolling region that takes keyboard focus (tabindex, role and name): a wide one
 * (long user agents, addresses) can then be scrolled without a mouse.
 */
/** Every admin page: its heading and the sections' navigation (the current one marked). */
export function AdminFrame({ current, heading, children }: { current: string; heading: MessageKey; children: ComponentChildren }) {
  const { t } = useLanguage();
  return (
    <>
      <nav class="tabs admin-tabs" aria-label={t('admin.nav')}>
        {sections.map(([href, key]) => (
          <a href={href} aria-current={href === current ? 'page' : undefined}>
            {t(key)}
          </a>
        ))}
      </nav>
      <section class="card">
        <h1>{t(heading)}</h1>
        {children}
      </section>
    </>
  );
}

export function AdminOverviewPage({ storage }: { storage: { usedBytes: number; maxBytes: number | null; pushes: { active: number; total: number } } }) {
  const { t } = useLanguage();
  const share = storage.maxBytes ? Math.min(100, Math.round((storage.usedBytes / storage.maxBytes) * 100)) : null;
  return (
    <AdminFrame current="/admin" heading="title.admin">
      <h2>{t('admin.storage.heading')}</h2>
      <p id="storage-used">
        {storage.maxBytes ? t('admin.storage.used', { used: bytes(storage.usedBytes), max: bytes(storage.maxBytes) }) : t('admin.storage.usedNoMax', { used: bytes(storage.usedBytes) })}
      </p>
      {share !== null && <progress max={100} value={share} aria-labelledby="storage-used" />}
      <p>{t('admin.storage.pushes', { active: storage.pushes.active, total: storage.pushes.total })}</p>
    </AdminFrame>
  );
}

export function Pager({ path, page, more, query = {} }: { path: string; page: number; more: boolean; query?: Record<string, string> }) {
  const { t } = useLanguage();
  const href = (p: number) => `${path}?${new URLSearchParams({ ...query, page: String(p) })}`;
  if (page <= 1 && !more) return null;
  return (
    <p class="pager">
      {page > 1 && <a href={href(page - 1)}>{t('admin.page.previous')}</a>} {more && <a href={href(page + 1)}>{t('admin.page.next')}</a>}
    </p>
  );
}

export function AdminUsersPage({ users, query, page, more, csrfToken, notice }: { users: AdminUserView[]; query: string; page: number; more: boolean; csrfToken: string; notice?: string }) {
  const { t, date } = useLanguage();
  return (
    <AdminFrame current="/admin/users" heading="title.adminUsers">
      {notice && <Notice kind="ok">{notice}</Notice>}
      <form method="get" action="/admin/users" class="inline-search" role="search">
        <label for="user-search">{t('admin.users.search')}</label>
        <input type="search" id="user-search" name="q" value={query} maxLength={254} />
        <button type="submit">{t('admin.users.searchButton')}</button>
      </form>
      {users.length === 0 ? (
        <p class="muted">{t('admin.users.none')}</p>
      ) : (
        <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminUsers')}>
          <table class="admin-users">
            <thead>
              <tr>
                <th>{t('admin.users.email')}</th>
                <th>{t('admin.users.created')}</th>
                <th>{t('admin.users.status')}</th>
                <th>{t('admin.users.tokens')}</th>
                <th>{t('admin.users.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr data-user={u.email}>
                  <td>{u.email}</td>
                  <td>{date(u.createdAt)}</td>
                  <td>
                    {[u.lockedAt ? t('admin.users.locked', { date: date(u.lockedAt) }) : t('admin.users.active'), ...(u.admin ? [t('admin.users.admin')] : [])].join(', ')}
                  </td>
                  <td>{u.apiTokens}</td>
                  <td class="row-actions">
                    {u.lockedAt ? (
                      <RowAction action="/admin/users/unlock" csrfToken={csrfToken} name="id" value={u.id} label={t('admin.users.unlock')} />
                    ) : (
                      <RowAction action="/admin/users/lock" csrfToken={csrfToken} name="id" value={u.id} label={t('admin.users.lock')} />
                    )}
                    <RowAction action="/admin/users/end-sessions" csrfToken={csrfToken} name="id" value={u.id} label={t('admin.users.endSessions')} />
                    <RowAction action="/admin/users/revoke-tokens" csrfToken={csrfToken} name="id" value={u.id} label={t('admin.users.revokeTokens')} />
                    <RowAction action="/admin/users/reset-second-factor" csrfToken={csrfToken} name="id" value={u.id} label={t('admin.users.resetSecondFactor')} />
                    {/* Deleting asks first, on a page of its own (no script needed). */}
                    <a class="button danger small" href={`/admin/users/delete?id=${encodeURIComponent(u.id)}`}>
                      {t('admin.users.delete')}
                    </a>
                    <a class="button danger small" href={`/admin/users/delete-with-pushes?id=${encodeURIComponent(u.id)}`}>
                      {t('admin.users.deleteWithPushes')}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager path="/admin/users" page={page} more={more} query={query ? { q: query } : {}} />
    </AdminFrame>
  );
}

export function AdminPushesPage({ pushes, page, more, csrfToken, notice }: { pushes: AdminPushView[]; page: number; more: boolean; csrfToken: string; notice?: string }) {
  const { t, date } = useLanguage();
  return (
    <AdminFrame current="/admin/pushes" heading="title.adminPushes">
      <p class="muted">{t('admin.pushes.intro')}</p>
      {notice && <Notice kind="ok">{notice}</Notice>}
      {pushes.length === 0 ? (
        <p class="muted">{t('admin.pushes.none')}</p>
      ) : (
        <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminPushes')}>
          <table class="admin-pushes">
            <thead>
              <tr>
                <th>{t('admin.pushes.id')}</th>
                <th>{t('admin.pushes.kind')}</th>
                <th>{t('admin.pushes.owner')}</th>
                <th>{t('admin.users.created')}</th>
                <th>{t('admin.pushes.expires')}</th>
                <th>{t('admin.pushes.views')}</th>
                <th>{t('admin.pushes.size')}</th>
                <th>
                  <span class="sr-only">{t('admin.users.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pushes.map((p) => (
                <tr data-push={p.id}>
                  <td>
                    <a href={`/admin/audit?push=${encodeURIComponent(p.id)}`} aria-label={t('admin.pushes.auditOf', { id: p.id.slice(0, 12) })}>
                      <code>{p.id.slice(0, 12)}</code>
                    </a>
                  </td>
                  <td>{p.kind}</td>
                  <td>{p.owner ?? <span class="muted">{t('admin.pushes.anonymous')}</span>}</td>
                  <td>{date(p.createdAt)}</td>
                  <td>{p.expiredAt ? t('admin.pushes.expired', { date: date(p.expiredAt) }) : date(p.expiresAt)}</td>
                  <td>
                    {p.views} / {p.maxViews}
                  </td>
                  <td>{bytes(p.size)}</td>
                  <td>{!p.expiredAt && <RowAction action="/admin/pushes/expire" csrfToken={csrfToken} name="id" value={p.id} label={t('admin.pushes.expire')} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager path="/admin/pushes" page={page} more={more} />
    </AdminFrame>
  );
}

export function AdminAuditPage({ entries, owners, query, limit, errors }: { entries: InstanceAuditEntry[]; owners: string[]; query: Record<string, string>; limit: number; errors?: Record<string, string[]> }) {
  const { t, date } = useLanguage();
  const exportHref = (format: string) => `/admin/audit/export?${new URLSearchParams({ ...query, format })}`;
  const field = (name: string, key: MessageKey) => (
    <p>
      <label for={`audit-${name}`}>{t(key)}</label>
      <input type="text" id={`audit-${name}`} name={name} value={query[name] ?? ''} maxLength={254} aria-invalid={errors?.[name] ? 'true' : undefined} />
      {errors?.[name] && <span class="error">{errors[name]!.join(' ')}</span>}
    </p>
  );
  return (
    <AdminFrame current="/admin/audit" heading="title.adminAudit">
      <p class="muted">{t('admin.audit.intro', { count: limit })}</p>
      <form method="get" action="/admin/audit" class="grid2 audit-filter">
        {field('from', 'admin.audit.from')}
        {field('to', 'admin.audit.to')}
        {field('account', 'admin.audit.account')}
        {field('push', 'admin.audit.push')}
        <p>
          <label for="audit-event">{t('admin.audit.event')}</label>
          <select id="audit-event" name="event">
            <option value="">{t('admin.audit.anyEvent')}</option>
            {auditKinds.map((k) => (
              <option value={k} selected={query.event === k}>
                {k}
              </option>
            ))}
          </select>
        </p>
        {field('ip', 'admin.audit.ip')}
        <p>
          <button type="submit">{t('admin.audit.filter')}</button>
        </p>
      </form>
      <p>
        <a href={exportHref('csv')} download>
          {t('admin.audit.exportCsv')}
        </a>{' '}
        ·{' '}
        <a href={exportHref('ndjson')} download>
          {t('admin.audit.exportNdjson')}
        </a>
      </p>
      {entries.length === 0 ? (
        <p class="muted">{t('admin.audit.none')}</p>
      ) : (
        <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminAudit')}>
          <table class="admin-audit">
            <thead>
              <tr>
                <th>{t('admin.audit.at')}</th>
                <th>{t('admin.audit.event')}</th>
                <th>{t('admin.pushes.id')}</th>
                <th>{t('admin.pushes.owner')}</th>
                <th>{t('admin.audit.ip')}</th>
                <th>{t('admin.audit.userAgent')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e, i) => (
                <tr>
                  <td>{date(e.at)}</td>
                  <td>{e.kind}</td>
                  <td>
                    <code>{e.push.slice(0, 12)}</code>
                  </td>
                  <td>{owners[i] || <span class="muted">{t('admin.pushes.anonymous')}</span>}</td>
                  <td>{e.ip}</td>
                  <td>{e.userAgent}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminFrame>
  );
}

export function AdminLogPage({ entries, page, more }: { entries: AdminLogEntry[]; page: number; more: boolean }) {
  const { t, date } = useLanguage();
  return (
    <AdminFrame current="/admin/log" heading="title.adminLog">
      <p class="muted">{t('admin.log.intro')}</p>
      {entries.length === 0 ? (
        <p class="muted">{t('admin.log.none')}</p>
      ) : (
        <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminLog')}>
          <table class="admin-log">
            <thead>
              <tr>
                <th>{t('admin.audit.at')}</th>
                <th>{t('admin.log.actor')}</th>
                <th>{t('admin.log.action')}</th>
                <th>{t('admin.log.target')}</th>
                <th>{t('admin.audit.ip')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr data-action={e.action}>
                  <td>{date(e.at)}</td>
                  <td>{e.actorEmail}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.target}</td>
                  <td>{e.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager path="/admin/log" page={page} more={more} />
    </AdminFrame>
  );
}

export function AdminInvitesPage({ invites, mode, csrfToken, link, errors }: { invites: StoredInvite[]; mode: 'open' | 'invite' | 'closed'; csrfToken: string; link?: string; errors?: Record<string, string[]> }) {
  const { t, date } = useLanguage();
  return (
    <AdminFrame current="/admin/invites" heading="title.adminInvites">
      <p class="muted">{t('admin.invites.intro', { mode: t(`admin.invites.mode.${mode}` as MessageKey) })}</p>
      {link && (
        <>
          <Notice kind="ok">{t('admin.invites.made')}</Notice>
          <CopyableValue id="invite-link" value={link} copyLabel={t('common.copy')} />
        </>
      )}
      <form method="post" action="/admin/invites" class="stack">
        <CsrfField token={csrfToken} />
        <label for="invite-email">{t('admin.invites.email')}</label>
        <input type="email" id="invite-email" name="email" maxLength={254} />
        {errors?.email && <span class="error">{errors.email.join(' ')}</span>}
        <label for="invite-days">{t('admin.invites.days')}</label>
        <input type="number" id="invite-days" name="days" min={1} max={90} value="7" />
        {errors?.days && <span class="error">{errors.days.join(' ')}</span>}
        <p>
          <button type="submit">{t('admin.invites.create')}</button>
        </p>
      </form>
      {invites.length === 0 ? (
        <p class="muted">{t('admin.invites.none')}</p>
      ) : (
        <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminInvites')}>
          <table class="admin-invites">
            <thead>
              <tr>
                <th>{t('admin.invites.for')}</th>
                <th>{t('admin.invites.by')}</th>
                <th>{t('admin.invites.state')}</th>
              </tr>
            </thead>
            <tbody>
              {invites.map((i) => (
                <tr>
                  <td>{i.email ?? t('admin.invites.anyAddress')}</td>
                  <td>{i.createdBy}</td>
                  <td>{i.usedAt ? t('admin.invites.used', { date: date(i.usedAt) }) : t('admin.invites.open', { date: date(i.expiresAt) })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminFrame>
  );
}

export function AdminConfigPage({ settings }: { settings: { name: string; value: string; source: 'environment' | 'default' }[] }) {
  const { t } = useLanguage();
  return (
    <AdminFrame current="/admin/config" heading="title.adminConfig">
      <p class="muted">{t('admin.config.intro')}</p>
      <div class="table-wrap" tabindex={0} role="region" aria-label={t('title.adminConfig')}>
        <table class="admin-config">
          <thead>
            <tr>
              <th>{t('admin.config.name')}</th>
              <th>{t('admin.config.value')}</th>
              <th>{t('admin.config.source')}</th>
            </tr>
          </thead>
          <tbody>
            {settings.map((s) => (
              <tr data-setting={s.name}>
                <td>
                  <code>{s.name}</code>
                </td>
                <td>
                  <code>{s.value}</code>
                </td>
                <td>{t(`admin.config.source.${s.source}` as MessageKey)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AdminFrame>
  );
}

/** Deleting an account asks first: what goes, what stays, and a way back. */
export function AdminConfirmDeletePage({ user, withPushes, csrfToken }: { user: AdminUserView; withPushes: boolean; csrfToken: string }) {
  const { t } = useLanguage();
  const action = withPushes ? '/admin/users/delete-with-pushes' : '/admin/users/delete';
  return (
    <AdminFrame current="/admin/users" heading="title.adminUsers">
      <h2>{t('admin.users.confirmHeading', { email: user.email })}</h2>
      <p>{t(withPushes ? 'admin.users.confirmBodyWithPushes' : 'admin.users.confirmBody')}</p>
      <form method="post" action={action} class="inline">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="id" value={user.id} />
        <button type="submit" class="danger" id="confirm-delete">
          {t(withPushes ? 'admin.users.deleteWithPushes' : 'admin.users.delete')}
        </button>
      </form>{' '}
      <a href={`/admin/users?q=${encodeURIComponent(user.email)}`}>{t('admin.users.cancel')}</a>
    </AdminFrame>
  );
}
