import type { AuditRecord, StoredApiToken, StoredPush, StoredSession, StoredUser } from './records.js';

/** The result of a read-modify-write on one push (see Store.updatePush). */
export interface PushChange<T> {
  /** The new record, or undefined to leave it as it is. */
  next?: StoredPush;
  /** An audit entry written in the same atomic step. */
  audit?: AuditRecord;
  result: T;
}

/**
 * Everything the services need from storage. The rules (limits, expiry, who may see what)
 * live in the services; a backend only stores, indexes and serialises. A second backend
 * (SQL, say) implements this interface and nothing else changes.
 */
export interface Store {
  insertPush(push: StoredPush, creation: AuditRecord): Promise<void>;
  getPush(token: string): Promise<StoredPush | undefined>;
  /**
   * Runs `change` on the current record and persists what it returns, atomically with respect
   * to every other update of the same push: two concurrent retrievals of a one-view push see
   * one another's effect. Resolves to undefined for an unknown token. The change is durable
   * before the promise resolves.
   */
  updatePush<T>(token: string, change: (push: StoredPush) => PushChange<T>): Promise<T | undefined>;
  appendAudit(token: string, entry: AuditRecord): Promise<void>;
  /** Audit entries oldest first. */
  listAudit(token: string, offset: number, limit: number): Promise<AuditRecord[]>;
  /** The owner's pushes, newest first, filtered by state. */
  listPushesByOwner(ownerId: string, expired: boolean, offset: number, limit: number): Promise<StoredPush[]>;
  /** Tokens of pushes not yet expired whose time limit is at or before `now`. */
  pushesDueBy(now: Date): Promise<string[]>;
  /** Tokens of expired pushes whose files' grace window has passed. */
  filesDueForPurge(now: Date): Promise<string[]>;
  countPushes(): Promise<{ active: number; total: number }>;

  insertUser(user: StoredUser): Promise<void>;
  /** Replaces an existing account (same id and email). */
  updateUser(user: StoredUser): Promise<void>;
  getUser(id: string): Promise<StoredUser | undefined>;
  getUserByEmail(email: string): Promise<StoredUser | undefined>;

  insertApiToken(token: StoredApiToken): Promise<void>;
  getApiTokenByHash(hash: string): Promise<StoredApiToken | undefined>;
  listApiTokens(userId: string): Promise<StoredApiToken[]>;
  deleteApiToken(id: string): Promise<void>;

  insertSession(session: StoredSession): Promise<void>;
  getSession(id: string): Promise<StoredSession | undefined>;
  deleteSession(id: string): Promise<void>;

  /** Writes everything out and releases files. */
  close(): Promise<void>;
}

/** Thrown when the disk refuses a write: callers answer 503 and nothing stored is changed. */
export class StorageUnavailableError extends Error {}

/** Thrown at start when the data file cannot be read as ours: it is never overwritten. */
export class CorruptDataError extends Error {}
