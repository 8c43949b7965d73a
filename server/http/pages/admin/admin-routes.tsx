/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { Hono, type Context, type Next } from 'hono';
import type { AccountService } from '../../../accounts/account-service.js';
import { auditExportStream } from '../../../admin/audit-export.js';
import { ADMIN_PAGE_SIZE, auditFilterFrom, type AdminService } from '../../../admin/admin-service.js';
import type { InviteService } from '../../../admin/invite-service.js';
import type { Config } from '../../../config.js';
import { ServiceError } from '../../../service-error.js';
import type { AppEnv } from '../../app-env.js';
import { languageOf } from '../../middleware/page-language.js';
import { getPageSession, pageActor, pageSession, safeReturnPath, verifyPageCsrf } from '../../middleware/session.js';
import { csrfRefused, readSmallForm } from '../page-errors.js';
import { sendPage } from '../render.js';
import { AdminGivenUpMailsPage } from './admin-mails-page.js';
import { AdminAuditPage, AdminConfirmDeletePage, AdminConfigPage, AdminInvitesPage, AdminLogPage, AdminOverviewPage, AdminPushesPage, AdminUsersPage } from './admin-pages.js';

const pageOf = (raw: string | undefined) => (raw && /^\d{1,6}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : 1);

/**
 * The administration pages (/admin/…): adapters over the admin service. Signed out, a visitor is
 * sent to sign in; signed in without the role, every route answers 403; every form is a POST
 * with the CSRF token, checked before anything else.
 */
export function adminPageRoutes(config: Config, accounts: AccountService, admin: AdminService, invites: InviteService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);

  /** Pages: sign in first, then administrators only (403 for anyone else). */
  const adminsOnly = async (c: Context<AppEnv>, next: Next) => {
    const { user } = getPageSession(c);
    if (!user && c.req.method === 'GET') {
      const back = safeReturnPath(new URL(c.req.url).pathname + new URL(c.req.url).search) ?? '/admin';
      return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(back)}`, 303);
    }
    admin.requireAdmin(pageActor(c));
    await next();
  };
  app.use('/admin', session, adminsOnly);
  app.use('/admin/*', session, adminsOnly);

  /** A POST form: CSRF first, then the action, then back to `to` with a notice. */
  const action = (path: string, run: (c: Context<AppEnv>, form: Awaited<ReturnType<typeof readSmallForm>>) => Promise<string>) =>
    app.post(path, async (c) => {
      const form = await readSmallForm(c);
      if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
      return c.redirect(await run(c, form), 303);
    });

  app.get('/admin', async (c) => sendPage(c, 200, 'title.admin', <AdminOverviewPage storage={await admin.storage(pageActor(c))} />));

  app.get('/admin/users', async (c) => {
    const page = pageOf(c.req.query('page'));
    const query = (c.req.query('q') ?? '').slice(0, 254);
    const users = await admin.listUsers(pageActor(c), query, page);
    const done = c.req.query('done');
    const notice = done && /^user\.[a-z-]+$/.test(done) ? languageOf(c).t('admin.users.done', { action: done, email: (c.req.query('email') ?? '').slice(0, 254) }) : undefined;
    return sendPage(c, 200, 'title.adminUsers', <AdminUsersPage users={users} query={query} page={page} more={users.length === ADMIN_PAGE_SIZE} csrfToken={getPageSession(c).csrfToken} notice={notice} />);
  });

  const userAction = (name: string, run: (c: Context<AppEnv>, id: string) => Promise<unknown>) =>
    action(`/admin/users/${name}`, async (c, form) => {
      const id = form.get('id') ?? '';
      const email = (await admin.account(pageActor(c), id)).email;
      await run(c, id);
      return `/admin/users?${new URLSearchParams({ done: `user.${name}`, email })}`;
    });
  for (const [path, withPushes] of [['/admin/users/delete', false], ['/admin/users/delete-with-pushes', true]] as const) {
    app.get(path, async (c) => {
      const user = await admin.account(pageActor(c), c.req.query('id') ?? '');
      return sendPage(c, 200, 'title.adminUsers', <AdminConfirmDeletePage user={user} withPushes={withPushes} csrfToken={getPageSession(c).csrfToken} />);
    });
  }
  userAction('lock', (c, id) => admin.lock(pageActor(c), id));
  userAction('unlock', (c, id) => admin.unlock(pageActor(c), id));
  userAction('end-sessions', (c, id) => admin.endSessions(pageActor(c), id));
  userAction('reset-second-factor', (c, id) => admin.resetSecondFactor(pageActor(c), id));
  userAction('revoke-tokens', (c, id) => admin.revokeTokens(pageActor(c), id));
  userAction('delete', (c, id) => admin.deleteUser(pageActor(c), id, false));
  userAction('delete-with-pushes', (c, id) => admin.deleteUser(pageActor(c), id, true));

  app.get('/admin/pushes', async (c) => {
    const page = pageOf(c.req.query('page'));
    const pushes = await admin.listPushes(pageActor(c), page);
    const notice = c.req.query('expired') === '1' ? languageOf(c).t('admin.pushes.expiredNotice') : undefined;
    return sendPage(c, 200, 'title.adminPushes', <AdminPushesPage pushes={pushes} page={page} more={pushes.length === ADMIN_PAGE_SIZE} csrfToken={getPageSession(c).csrfToken} notice={notice} />);
  });
  action('/admin/pushes/expire', async (c, form) => {
    await admin.expirePush(pageActor(c), form.get('id') ?? '');
    return '/admin/pushes?expired=1';
  });

  const auditQuery = (c: Context<AppEnv>) => {
    const q: Record<string, string> = {};
    for (const name of ['from', 'to', 'account', 'push', 'event', 'ip']) {
      const v = c.req.query(name);
      if (v) q[name] = v.slice(0, 254);
    }
    return q;
  };
  app.get('/admin/audit', async (c) => {
    const query = auditQuery(c);
    try {
      const { filter } = await auditFilterFrom(admin.store, query);
      const entries = await admin.auditPage(pageActor(c), filter);
      const emailOf = admin.emailLookup();
      const owners = await Promise.all(entries.map((e) => emailOf(e.owner)));
      return sendPage(c, 200, 'title.adminAudit', <AdminAuditPage entries={entries} owners={owners} query={query} limit={ADMIN_PAGE_SIZE} />);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return sendPage(c, 422, 'title.adminAudit', <AdminAuditPage entries={[]} owners={[]} query={query} limit={ADMIN_PAGE_SIZE} errors={e.fieldErrors} />);
      throw e;
    }
  });
  app.get('/admin/audit/export', async (c) => {
    const { filter, format } = await auditFilterFrom(admin.store, { ...auditQuery(c), format: c.req.query('format') });
    const entries = await admin.exportAudit(pageActor(c), filter);
    return c.body(auditExportStream(entries, format, admin.emailLookup()), 200, {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      'Content-Disposition': `attachment; filename="audit.${format}"`,
      'Cache-Control': 'no-store',
    });
  });

  // Every account's given-up e-mails (metadata only); reading it is not logged.
  app.get('/admin/mails', async (c) => {
    const page = pageOf(c.req.query('page'));
    const mails = await admin.givenUpMails(pageActor(c), page);
    return sendPage(c, 200, 'title.adminMails', <AdminGivenUpMailsPage mails={mails} page={page} more={mails.length === ADMIN_PAGE_SIZE} />);
  });

  app.get('/admin/log', async (c) => {
    const page = pageOf(c.req.query('page'));
    const entries = await admin.adminLog(pageActor(c), page);
    return sendPage(c, 200, 'title.adminLog', <AdminLogPage entries={entries} page={page} more={entries.length === ADMIN_PAGE_SIZE} />);
  });

  const invitesPage = async (c: Context<AppEnv>, status: 200 | 201 | 422, extra: { link?: string; errors?: Record<string, string[]> } = {}) =>
    sendPage(c, status, 'title.adminInvites', <AdminInvitesPage invites={await invites.list(pageActor(c))} mode={config.admin.signUp} csrfToken={getPageSession(c).csrfToken} {...extra} />);
  app.get('/admin/invites', (c) => invitesPage(c, 200));
  app.post('/admin/invites', async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    try {
      const { link } = await invites.create(pageActor(c), form.get('email') ?? '', form.get('days') ?? '');
      return invitesPage(c, 201, { link });
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return invitesPage(c, 422, { errors: e.fieldErrors });
      throw e;
    }
  });

  app.get('/admin/config', (c) => sendPage(c, 200, 'title.adminConfig', <AdminConfigPage settings={admin.effectiveConfiguration(pageActor(c))} />));

  return app;
}

