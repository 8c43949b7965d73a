import { randomUUID } from 'node:crypto';
import type { AccountService } from '../accounts/account-service.js';
import type { User } from '../accounts/user.js';
import type { KeyRing } from '../crypto/key-ring.js';
import { allGivenUpMails, type AdminGivenUpMail } from '../mail/given-up-mails.js';
import type { Config } from '../config.js';
import type { Actor, PushService } from '../pushes/push-service.js';
import { ServiceError } from '../service-error.js';
import type { AdminLogEntry, InstanceAuditEntry, InstanceAuditFilter } from '../storage/admin-records.js';
import type { StoredPush, StoredUser } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import type { AdminAction } from './admin-actions.js';
import type { SecondFactorService } from '../accounts/second-factor/second-factor-service.js';
import { maskedSettings } from './mask-settings.js';
import { auditFilterQuerySchema } from '../../shared/admin-schema.js';

/** Who acts: an administrator's account (pages, API) or the command line. */
export type AdminActor = Actor;

/** Actors made here for the command line: only these act without an administrator's account. */
const commandLineActors = new WeakSet<AdminActor>();

/** The command line acts as itself (run on the server, by its operator): its entries say so instead of naming an account. */
export function commandLineActor(baseUrl = ''): AdminActor {
  const actor: AdminActor = { user: null, client: { ip: 'command line', userAgent: 'npm run users', referrer: '' }, baseUrl };
  commandLineActors.add(actor);
  return actor;
}

export interface AdminUserView {
  id: string;
  email: string;
  createdAt: string;
  admin: boolean;
  lockedAt: string | null;
  apiTokens: number;
}

/** A push as the administration sees it: metadata only, never payload, name, note or file names. */
export interface AdminPushView {
  id: string;
  kind: StoredPush['kind'];
  owner: string | null;
  createdAt: string;
  expiresAt: string;
  expiredAt: string | null;
  views: number;
  maxViews: number;
  files: number;
  /** Bytes stored: the sealed payload and the files. */
  size: number;
  endToEnd: boolean;
}

export const ADMIN_PAGE_SIZE = 50;
const FIELD_MAX = 512;

export interface AdminServiceDeps {
  store: Store;
  accounts: AccountService;
  pushes: PushService;
  config: Pick<Config, 'settings' | 'storage' | 'admin'>;
  /** Removes an account's authenticator app, recovery codes and passkeys, and ends its sessions. */
  secondFactor: Pick<SecondFactorService, 'reset'>;
  clock?: () => Date;
  /** Opens the mail outbox's sealed messages for their recipients (the given-up list); absent: that list is empty. */
  keys?: KeyRing;
}

/**
 * The administration's rules: only administrators act, each action leaves an admin-log entry
 * (who, what, when, from where), pushes are seen as metadata only. Pages and the API are thin
 * adapters over it.
 */
export class AdminService {
  private readonly now: () => Date;

  constructor(private readonly deps: AdminServiceDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  /** For parsing a filter's account (auditFilterFrom). */
  get store(): Pick<Store, 'getUserByEmail'> {
    return this.deps.store;
  }

  /** Refuses anyone but an administrator (the command line is one by being run on the server). */
  private require(actor: AdminActor): void {
    if (commandLineActors.has(actor)) return;
    if (!actor.user) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    if (!actor.user.admin) throw new ServiceError('forbidden', 'Administrators only.');
  }

  isAdmin(actor: AdminActor): boolean {
    return commandLineActors.has(actor) || Boolean(actor.user?.admin);
  }

  private async log(actor: AdminActor, action: AdminAction, target: string): Promise<void> {
    const entry: AdminLogEntry = {
      id: randomUUID(),
      at: this.now().toISOString(),
      actorId: actor.user?.id ?? null,
      actorEmail: actor.user?.email ?? 'command line',
      action,
      target: target.slice(0, FIELD_MAX),
      ip: actor.client.ip.slice(0, FIELD_MAX),
      userAgent: actor.client.userAgent.slice(0, FIELD_MAX),
    };
    await this.deps.store.appendAdminLog(entry);
  }

  private async accountRecord(id: string): Promise<StoredUser> {
    const user = typeof id === 'string' && id.length <= 100 ? await this.deps.store.getUser(id) : undefined;
    if (!user) throw new ServiceError('not_found', 'There is no such account.');
    return user;
  }

  async listUsers(actor: AdminActor, rawQuery: unknown, page: number): Promise<AdminUserView[]> {
    this.require(actor);
    const query = typeof rawQuery === 'string' ? rawQuery.trim().toLowerCase().slice(0, 254) : '';
    const users = await this.deps.store.listUsers(query, (page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
    return Promise.all(
      users.map(async (u) => ({
        id: u.id,
        email: u.email,
        createdAt: u.createdAt,
        admin: Boolean(u.admin) || this.deps.config.admin.emails.includes(u.email),
        lockedAt: u.lockedAt ?? null,
        apiTokens: (await this.deps.store.listApiTokens(u.id)).length,
      })),
    );
  }

  /** One account as the administration sees it. */
  async account(actor: AdminActor, userId: string): Promise<AdminUserView> {
    this.require(actor);
    const u = await this.accountRecord(userId);
    return {
      id: u.id,
      email: u.email,
      createdAt: u.createdAt,
      admin: Boolean(u.admin) || this.deps.config.admin.emails.includes(u.email),
      lockedAt: u.lockedAt ?? null,
      apiTokens: (await this.deps.store.listApiTokens(u.id)).length,
    };
  }

  /** `npm run users -- admin <email>` (and `--revoke`): the stored role. */
  async setAdmin(actor: AdminActor, rawEmail: unknown, admin: boolean): Promise<User> {
    this.require(actor);
    const email = this.deps.accounts.normaliseEmail(rawEmail);
    const user = await this.deps.store.getUserByEmail(email);
    if (!user) throw new ServiceError('not_found', `There is no account ${email}.`);
    await this.deps.store.updateUser({ ...user, admin });
    await this.log(actor, admin ? 'user.grant-admin' : 'user.revoke-admin', email);
    return { id: user.id, email: user.email, createdAt: user.createdAt, admin };
  }

  /**
   * Locks an account: its sessions end, and from the next request on no sign-in, session or
   * API token of it works, on every instance (each request reads the account from the store).
   */
  async lock(actor: AdminActor, userId: string): Promise<void> {
    this.require(actor);
    const user = await this.accountRecord(userId);
    if (actor.user && user.id === actor.user.id) throw new ServiceError('bad_request', 'You cannot lock your own account.');
    // One atomic change of the account: a second factor enrolled meanwhile is not overwritten.
    const lockedAt = this.now().toISOString();
    await this.deps.store.changeUser(user.id, (u) => ({ next: u.lockedAt ? undefined : { ...u, lockedAt }, result: undefined }));
    await this.deps.store.deleteSessionsOfUser(user.id);
    await this.log(actor, 'user.lock', user.email);
  }

  async unlock(actor: AdminActor, userId: string): Promise<void> {
    this.require(actor);
    const user = await this.accountRecord(userId);
    await this.deps.store.changeUser(user.id, (u) => ({ next: u.lockedAt ? { ...u, lockedAt: null } : undefined, result: undefined }));
    await this.log(actor, 'user.unlock', user.email);
  }

  async endSessions(actor: AdminActor, userId: string): Promise<number> {
    this.require(actor);
    const user = await this.accountRecord(userId);
    const ended = await this.deps.store.deleteSessionsOfUser(user.id);
    await this.log(actor, 'user.end-sessions', user.email);
    return ended;
  }

  /**
   * For someone who lost their phone: the account signs in with its password alone again (or,
   * with REQUIRE_MFA, sets up a new app first). Its API tokens stay.
   */
  async resetSecondFactor(actor: AdminActor, userId: string): Promise<{ totp: boolean; passkeys: number; sessions: number }> {
    this.require(actor);
    const user = await this.accountRecord(userId);
    const removed = await this.deps.secondFactor.reset(user.id);
    await this.log(actor, 'user.reset-second-factor', user.email);
    return removed;
  }

  async revokeTokens(actor: AdminActor, userId: string): Promise<number> {
    this.require(actor);
    const user = await this.accountRecord(userId);
    const tokens = await this.deps.store.listApiTokens(user.id);
    for (const t of tokens) await this.deps.store.deleteApiToken(t.id);
    await this.log(actor, 'user.revoke-tokens', user.email);
    return tokens.length;
  }

  /**
   * Deletes an account (tokens, sessions, webhooks, requests go with it). With `withPushes`, its
   * pushes are expired first (payloads and files erased, as Expire now does); without, they
   * stay readable by whoever holds their links until they expire.
   */
  async deleteUser(actor: AdminActor, userId: string, withPushes: boolean): Promise<number> {
    this.require(actor);
    const user = await this.accountRecord(userId);
    if (actor.user && user.id === actor.user.id) throw new ServiceError('bad_request', 'You cannot delete your own account here.');
    let expired = 0;
    if (withPushes) {
      const pushActor = { ...actor, user: actor.user ?? { id: '', email: 'command line', createdAt: '', admin: true } };
      for (;;) {
        const batch = await this.deps.store.listPushesByOwner(user.id, false, 0, ADMIN_PAGE_SIZE);
        if (!batch.length) break;
        for (const p of batch) await this.deps.pushes.expireAsAdministrator(pushActor, p.token);
        expired += batch.length;
      }
    }
    await this.deps.store.deleteUser(user.id);
    await this.log(actor, withPushes ? 'user.delete-with-pushes' : 'user.delete', user.email);
    return expired;
  }

  async listPushes(actor: AdminActor, page: number): Promise<AdminPushView[]> {
    this.require(actor);
    const pushes = await this.deps.store.listAllPushes((page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
    const owners = new Map<string, string>();
    for (const p of pushes) {
      if (p.ownerId && !owners.has(p.ownerId)) owners.set(p.ownerId, (await this.deps.store.getUser(p.ownerId))?.email ?? '(deleted account)');
    }
    return pushes.map((p) => ({
      id: p.token,
      kind: p.kind,
      owner: p.ownerId ? owners.get(p.ownerId)! : null,
      createdAt: p.createdAt,
      expiresAt: p.expiresAt,
      expiredAt: p.expiredAt,
      views: p.views,
      maxViews: p.expireAfterViews,
      files: p.files.length,
      size: (p.payload?.length ?? 0) + p.files.reduce((n, f) => n + f.size, 0),
      endToEnd: Boolean(p.endToEnd),
    }));
  }

  async expirePush(actor: AdminActor, pushId: string): Promise<void> {
    this.require(actor);
    if (!actor.user) throw new ServiceError('bad_request', 'Expire pushes from the pages or the API.');
    await this.deps.pushes.expireAsAdministrator(actor, pushId);
    await this.log(actor, 'push.expire', pushId);
  }

  async storage(actor: AdminActor): Promise<{ usedBytes: number; maxBytes: number | null; pushes: { active: number; total: number } }> {
    this.require(actor);
    const max = this.deps.config.storage.maxStorageMb;
    return { usedBytes: await this.deps.store.storedBytes(), maxBytes: max > 0 ? max * 1_048_576 : null, pushes: await this.deps.store.countPushes() };
  }

  effectiveConfiguration(actor: AdminActor) {
    this.require(actor);
    return maskedSettings(this.deps.config.settings);
  }

  /** Every account's given-up mails (recipients, kind, when, the SMTP reply; never a subject or body), a page of ADMIN_PAGE_SIZE. Reading it is not logged. */
  async givenUpMails(actor: AdminActor, page: number): Promise<AdminGivenUpMail[]> {
    this.require(actor);
    if (!this.deps.keys) return [];
    return allGivenUpMails(this.deps.store, this.deps.keys, (page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
  }

  async adminLog(actor: AdminActor, page: number): Promise<AdminLogEntry[]> {
    this.require(actor);
    return this.deps.store.listAdminLog((page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
  }

  /** The first entries of the instance-wide audit matching the filter (the page's view). */
  async auditPage(actor: AdminActor, filter: InstanceAuditFilter, limit = ADMIN_PAGE_SIZE): Promise<InstanceAuditEntry[]> {
    this.require(actor);
    const out: InstanceAuditEntry[] = [];
    for await (const e of this.deps.store.streamInstanceAudit(filter)) {
      out.push(e);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The whole instance-wide audit matching the filter, read in batches (the export streams it). */
  async exportAudit(actor: AdminActor, filter: InstanceAuditFilter): Promise<AsyncIterable<InstanceAuditEntry>> {
    this.require(actor);
    await this.log(actor, 'audit.export', describeFilter(filter));
    return this.deps.store.streamInstanceAudit(filter);
  }

  /**
   * An account's email for audit rows, from a cache that is emptied when it reaches 10,000
   * accounts (an export over many accounts stays bounded; the usual few owners hit the cache).
   */
  emailLookup(): (id: string | null) => Promise<string> {
    const cache = new Map<string, string>();
    return async (id) => {
      if (id === null) return '';
      let email = cache.get(id);
      if (email === undefined) {
        if (cache.size >= 10_000) cache.clear();
        email = (await this.deps.store.getUser(id))?.email ?? `(deleted account ${id})`;
        cache.set(id, email);
      }
      return email;
    };
  }

  async logInvite(actor: AdminActor, target: string): Promise<void> {
    await this.log(actor, 'invite.create', target);
  }

  requireAdmin(actor: AdminActor): void {
    this.require(actor);
  }
}

function describeFilter(f: InstanceAuditFilter): string {
  const parts = Object.entries(f).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(' ') : 'everything';
}

/** A date alone means its start (UTC); a time is normalised to the stored ISO form. */
function isoTime(v: string | undefined): string | undefined {
  return v === undefined ? undefined : new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString();
}

/**
 * The audit filter from a query (pages and API): checked by the shared schema; an account is
 * named by email, and an unknown one matches nothing rather than everything.
 */
export async function auditFilterFrom(store: Pick<Store, 'getUserByEmail'>, raw: Record<string, string | undefined>): Promise<{ filter: InstanceAuditFilter; format: 'csv' | 'ndjson' }> {
  const parsed = auditFilterQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'filter')] ??= []).push(issue.message);
    throw ServiceError.validation(errors);
  }
  const q = parsed.data;
  let owner: string | undefined;
  if (q.account !== undefined) owner = (await store.getUserByEmail(q.account.toLowerCase()))?.id ?? '(no such account)';
  return { filter: { from: isoTime(q.from), to: isoTime(q.to), owner, push: q.push, kind: q.event, ip: q.ip }, format: q.format ?? 'csv' };
}
