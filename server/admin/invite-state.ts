import type { StoredInvite } from '../storage/admin-records.js';

/** What an invite link can still do, as the administration lists it. */
export type InviteState = 'open' | 'used' | 'expired' | 'revoked';

export function inviteState(invite: StoredInvite, now: Date): InviteState {
  if (invite.usedAt !== null) return 'used';
  if (invite.revokedAt) return 'revoked';
  return invite.expiresAt <= now.toISOString() ? 'expired' : 'open';
}
