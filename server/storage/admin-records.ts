import { z } from 'zod';
import { auditKindSchema } from '../../shared/push-schema.js';

/**
 * What the administration area stores beside the accounts and pushes: the admin log (append
 * only: no page, API or store method edits or deletes an entry) and sign-up invites.
 */
export const adminLogEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The administrator's account, or null for the command line. */
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  /** What was done, e.g. `user.lock` (see server/admin/admin-actions.ts). */
  action: z.string(),
  /** What it was done to: an account's email, a push's storage id, an invite id. */
  target: z.string(),
  ip: z.string(),
  userAgent: z.string(),
});
export type AdminLogEntry = z.infer<typeof adminLogEntrySchema>;

export const storedInviteSchema = z.object({
  /** SHA-256 of the invite link's secret (the link itself is shown once, to the admin who made it). */
  id: z.string(),
  /** Only this address may sign up with it, when set. */
  email: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  /** Set when an administrator revoked it before use (its expiresAt is set to the same time). */
  revokedAt: z.string().nullable().optional(),
});
export type StoredInvite = z.infer<typeof storedInviteSchema>;

/** One push audit entry seen instance-wide: which push, whose, and the entry. */
export interface InstanceAuditEntry {
  /** The push's storage id. */
  push: string;
  /** The push's owner account id, or null (anonymous, or the push is gone). */
  owner: string | null;
  kind: z.infer<typeof auditKindSchema>;
  ip: string;
  userAgent: string;
  at: string;
}

/** Which entries an instance-wide audit listing or export keeps; every field optional. */
export interface InstanceAuditFilter {
  /** ISO times: from (inclusive), to (exclusive). */
  from?: string;
  to?: string;
  owner?: string;
  push?: string;
  kind?: string;
  ip?: string;
}

export function matchesAuditFilter(f: InstanceAuditFilter, e: InstanceAuditEntry): boolean {
  return (
    (f.from === undefined || e.at >= f.from) &&
    (f.to === undefined || e.at < f.to) &&
    (f.owner === undefined || e.owner === f.owner) &&
    (f.push === undefined || e.push === f.push) &&
    (f.kind === undefined || e.kind === f.kind) &&
    (f.ip === undefined || e.ip === f.ip)
  );
}
