import { randomBytes, randomUUID } from 'node:crypto';
import type { AccountService } from '../accounts/account-service.js';
import { digest } from '../crypto/secret-hash.js';
import { ServiceError } from '../service-error.js';
import type { StoredInvite } from '../storage/admin-records.js';
import type { Store } from '../storage/store.js';
import { ADMIN_PAGE_SIZE, type AdminActor, type AdminService } from './admin-service.js';
import { inviteState, type InviteState } from './invite-state.js';

export const INVITE_DEFAULT_DAYS = 7;
export const INVITE_MAX_DAYS = 90;
export const INVITE_NOT_OPEN_MESSAGE = 'This invite cannot be revoked: it does not exist, was used, has expired or was revoked already.';
export const INVITE_INVALID_MESSAGE = 'This invite link is not valid: it has been used, has expired, or is for another address.';

/**
 * SIGN_UP=invite: an administrator makes a single-use link (expiring, optionally for one
 * address); signing up with it uses it up. Only the link's digest is stored.
 */
export class InviteService {
  private readonly now: () => Date;

  constructor(private readonly deps: { store: Store; admin: AdminService; accounts: AccountService; clock?: () => Date }) {
    this.now = deps.clock ?? (() => new Date());
  }

  async create(actor: AdminActor, rawEmail: unknown, rawDays: unknown): Promise<{ link: string; invite: StoredInvite }> {
    this.deps.admin.requireAdmin(actor);
    const email = rawEmail === undefined || rawEmail === null || rawEmail === '' ? null : this.deps.accounts.normaliseEmail(rawEmail);
    const days = rawDays === undefined || rawDays === '' ? INVITE_DEFAULT_DAYS : Number(rawDays);
    if (!Number.isInteger(days) || days < 1 || days > INVITE_MAX_DAYS) throw ServiceError.validation({ days: [`must be a whole number of days from 1 to ${INVITE_MAX_DAYS}`] });
    const secret = randomBytes(24).toString('base64url');
    const now = this.now();
    const invite: StoredInvite = {
      id: digest(secret),
      email,
      createdBy: actor.user?.email ?? 'command line',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + days * 86_400_000).toISOString(),
      usedAt: null,
    };
    await this.deps.store.insertInvite(invite);
    await this.deps.admin.logInvite(actor, email ?? `any address (${randomUUID().slice(0, 8)})`);
    return { link: `${actor.baseUrl}/users/sign_up?invite=${secret}`, invite };
  }

  /** One page of invites, newest first, each with its state now (ADMIN_PAGE_SIZE a page; `page` from 1). */
  async list(actor: AdminActor, page = 1): Promise<{ invite: StoredInvite; state: InviteState }[]> {
    this.deps.admin.requireAdmin(actor);
    const now = this.now();
    const invites = await this.deps.store.listInvites(ADMIN_PAGE_SIZE, (page - 1) * ADMIN_PAGE_SIZE);
    return invites.map((invite) => ({ invite, state: inviteState(invite, now) }));
  }

  /** Revokes an open invite (its link then signs nobody up, on any instance); in the admin log. */
  async revoke(actor: AdminActor, rawId: unknown): Promise<StoredInvite> {
    this.deps.admin.requireAdmin(actor);
    const id = typeof rawId === 'string' && rawId.length <= 100 ? rawId : '';
    const revoked = id ? await this.deps.store.revokeInvite(id, this.now()) : undefined;
    if (!revoked) throw new ServiceError('conflict', INVITE_NOT_OPEN_MESSAGE);
    await this.deps.admin.logInvite(actor, revoked.email ?? `any address (made ${revoked.createdAt} by ${revoked.createdBy})`, 'invite.revoke');
    return revoked;
  }

  /** Uses the invite up for `email`'s new account; refuses a used, expired or other address's one. */
  async redeem(rawSecret: unknown, email: string): Promise<void> {
    const secret = typeof rawSecret === 'string' ? rawSecret : '';
    const used = /^[A-Za-z0-9_-]{16,64}$/.test(secret) ? await this.deps.store.useInvite(digest(secret), this.now(), email) : undefined;
    if (!used) throw ServiceError.validation({ invite: [INVITE_INVALID_MESSAGE] });
  }
}
